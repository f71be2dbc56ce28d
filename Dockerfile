# Lexdesk in server mode (README, "Deploying for a firm"; decision 0068).
# Stage 1 builds the web app with the dev dependencies; stage 2 holds the production
# dependencies, the built SPA, the server's TypeScript (run by tsx, as `npm start` and
# `npm run test:server` run it) and the Debian packages of scripts/ensure-system.mjs `app`.
# Base: Debian 12 (bookworm) with Node 20, as the machine the tests run on. BASE_IMAGE replaces it
# with an image of the same shape (a `node` user of uid 1000, node and npm on the PATH) where no
# registry of images is reachable: scripts/build-local-image.sh makes one with debootstrap.
ARG BASE_IMAGE=node:20-bookworm-slim
FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npx vite build

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
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist/web ./dist/web
COPY server ./server
COPY tsconfig*.json ./
# Non-root: the image's `node` user (uid 1000) owns only the data directory.
RUN mkdir -p /data && chown node:node /data
USER node
ENV NODE_ENV=production LEXDESK_DATA_DIR=/data HOST=0.0.0.0 PORT=3000
EXPOSE 3000
# SIGTERM reaches node itself (exec form, no shell): the graceful stop of SHUTDOWN_TIMEOUT_S.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same command npm run test:server starts each instance with (server/test/child-server.ts).
CMD ["node", "--import", "tsx", "server/main.ts"]
