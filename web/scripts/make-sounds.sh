#!/bin/sh
# Outpost's own sounds (P4), synthesised with sox: short, soft and small (<20 KB).
# Run from web/: sh scripts/make-sounds.sh   (needs sox with Ogg Vorbis: apt-get install sox libsox-fmt-all)
set -eu
out=public/sounds
mkdir -p "$out"
sr="-r 22050 -c 1"

# A wooden "tock": a low sine with a quick decay, plus a click of filtered noise.
sox -n $sr /tmp/outpost-body.wav synth 0.09 sine 520 fade q 0.002 0.09 0.085 vol 0.7
sox -n $sr /tmp/outpost-click.wav synth 0.03 pinknoise fade q 0.001 0.03 0.028 highpass 1800 vol 0.4
sox -m /tmp/outpost-body.wav /tmp/outpost-click.wav -C 0 "$out/move.ogg"

# A capture: two knocks, lower and firmer.
sox -n $sr /tmp/outpost-k1.wav synth 0.07 sine 380 fade q 0.002 0.07 0.065 vol 0.8
sox -n $sr /tmp/outpost-k2.wav synth 0.10 sine 300 fade q 0.002 0.10 0.095 vol 0.8 pad 0.05
sox -m /tmp/outpost-k1.wav /tmp/outpost-k2.wav /tmp/outpost-cap.wav
sox -m /tmp/outpost-cap.wav /tmp/outpost-click.wav -C 0 "$out/capture.ogg"

# Check: a brighter two-tone ping.
sox -n $sr -C 0 "$out/check.ogg" synth 0.22 sine 880 sine 1320 fade q 0.005 0.22 0.2 vol 0.35 remix -

# Castling: two quick tocks, the second higher.
sox -n $sr /tmp/outpost-c1.wav synth 0.08 sine 480 fade q 0.002 0.08 0.075 vol 0.7
sox -n $sr /tmp/outpost-c2.wav synth 0.08 sine 600 fade q 0.002 0.08 0.075 vol 0.7 pad 0.11
sox -m /tmp/outpost-c1.wav /tmp/outpost-c2.wav -C 0 "$out/castle.ogg"

# Game end: a soft rising three-note chime (C E G).
sox -n $sr /tmp/outpost-e1.wav synth 0.5 sine 523.25 fade q 0.01 0.5 0.45 vol 0.3
sox -n $sr /tmp/outpost-e2.wav synth 0.5 sine 659.25 fade q 0.01 0.5 0.45 vol 0.3 pad 0.14
sox -n $sr /tmp/outpost-e3.wav synth 0.6 sine 783.99 fade q 0.01 0.6 0.55 vol 0.3 pad 0.28
sox -m /tmp/outpost-e1.wav /tmp/outpost-e2.wav /tmp/outpost-e3.wav -C 0 "$out/end.ogg"

# Low time: two short high beeps.
sox -n $sr /tmp/outpost-b1.wav synth 0.07 sine 1480 fade q 0.003 0.07 0.06 vol 0.35
sox -n $sr /tmp/outpost-b2.wav synth 0.07 sine 1480 fade q 0.003 0.07 0.06 vol 0.35 pad 0.14
sox -m /tmp/outpost-b1.wav /tmp/outpost-b2.wav -C 0 "$out/lowtime.ogg"

rm -f /tmp/outpost-*.wav
ls -l "$out"
