#!/usr/bin/env bash
# One-time setup on Debian/Ubuntu: the Debian packages the service and its tests use, then npm packages.
# Safe to run again; it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# pocketsphinx: the embedded offline speech engine; espeak-ng + sox: synthetic speech for tests and benches;
# chromium: the browser the end-to-end tests drive; sphinxbase-utils rebuilds the clinical language model;
# pocketsphinx-testdata holds real read speech with transcripts for the speech tests and bench, alsa-utils a few
# real spoken words (/usr/share/sounds/alsa); festival + festvox voices and flite: natural synthetic voices
# (built from recorded speech) for the speech and clinical benches. curl: the admin CLI test runs the curl lines `demo` prints.
# ffmpeg: decodes uploaded recordings (WAV, MP3, M4A/AAC, WebM/Opus, FLAC); Debian's build is maintained with security updates.
PACKAGES=(pocketsphinx pocketsphinx-en-us libpocketsphinx3 libsphinxbase3 sphinxbase-utils pocketsphinx-testdata espeak-ng sox chromium curl
  festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts flite alsa-utils ffmpeg)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# onnxruntime-node would otherwise download a binary at install time.
export ONNXRUNTIME_NODE_INSTALL=skip
npm install --no-audit --no-fund --loglevel=error
