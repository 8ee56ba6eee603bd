#!/bin/sh
# The image's entry point: starts one part of the shop from the image's /app folder.
#   docker run IMAGE gateway            (or orders, payments, customers, support, marketing, security, email)
#   docker run -e SHOP_PART=orders IMAGE
# Without either, an image built for a single part starts that part. `exec` makes Node the container's
# main process, so SIGTERM from Kubernetes reaches the part's graceful shutdown.
set -eu
app=$(cd "$(dirname "$0")" && pwd)
parts=""
[ -f "$app/gateway/dist/main.js" ] && parts="gateway"
for main in "$app"/services/*/dist/main.js; do
  [ -f "$main" ] || continue
  name=${main#"$app/services/"}
  parts="${parts:+$parts }${name%%/*}"
done

part=${1:-${SHOP_PART:-}}
if [ -z "$part" ]; then
  case "$parts" in
    *" "*) echo "Which part should start? Pass one as the argument or in SHOP_PART: $parts" >&2; exit 64 ;;
    "") echo "This image holds no built part of the shop." >&2; exit 64 ;;
    *) part=$parts ;;
  esac
fi
case " $parts " in
  *" $part "*) ;;
  *) echo "\"$part\" is not in this image; it holds: $parts" >&2; exit 64 ;;
esac

if [ "$part" = gateway ]; then cd "$app/gateway"; else cd "$app/services/$part"; fi
exec node dist/main.js
