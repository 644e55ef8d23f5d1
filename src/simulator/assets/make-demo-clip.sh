#!/usr/bin/env bash
# Makes demo-clip.mp4, the few-second clip the simulator serves as every finished render (media.ts), so the
# demo's player has something real to play. Run once and commit the result; nothing runs it at start-up or in
# CI. Needs ffmpeg with libx264 (Debian: `apt-get install -y --no-install-recommends ffmpeg`).
#
# The picture is ffmpeg's own `gradients` source (moving colour gradients, 9:16 like a reel) with a soft
# 440 Hz tone that fades in and out: no third-party footage or font. H.264 baseline + AAC-LC in an MP4 with
# its index first (`+faststart`), so a browser starts playing before the whole file is read.
set -euo pipefail
cd "$(dirname "$0")"
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i 'gradients=s=270x480:r=24:d=4:speed=0.03:n=3:seed=27' \
  -f lavfi -i 'sine=frequency=440:sample_rate=22050:duration=4' \
  -filter:a 'volume=0.2,afade=t=in:d=0.5,afade=t=out:st=3.4:d=0.6' \
  -c:v libx264 -profile:v baseline -level 3.0 -pix_fmt yuv420p -crf 34 -preset veryslow -g 48 \
  -c:a aac -b:a 24k -ac 1 \
  -movflags +faststart -map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
  -shortest demo-clip.mp4
ls -l demo-clip.mp4
