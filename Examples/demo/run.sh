#!/usr/bin/env bash
# The SSOKit demo in one command on a fresh Debian machine with Swift: installs the system packages the build needs
# (only those missing), builds the CLI and runs `ssokit demo` (arguments are passed on: --json, --keep).
# Everything runs in-process on 127.0.0.1: the dev IdP, two web apps, the adapter on an embedded SQLite cache in a
# temporary folder, and the intercepting proxy. No Python, no network.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

packages=(ca-certificates build-essential pkg-config libssl-dev libxml2-dev libxmlsec1-dev zlib1g-dev libsqlite3-dev)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    echo "== installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

echo "== building ssokit (a first build takes several minutes)"
swift build --product ssokit
echo "== ssokit demo"
exec .build/debug/ssokit demo "$@"
