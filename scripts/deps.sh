#!/bin/sh
# Installs the build dependencies that are missing (Debian packages), or, when not
# root, prints the exact command to run.  Quiet when everything is present.
set -u
missing=""
have_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1" 2>/dev/null; }
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
[ -f /usr/include/ev.h ] || missing="$missing libev-dev"
have_pc check || missing="$missing check"
have_pc inih || missing="$missing libinih-dev"
have_pc gsl || missing="$missing libgsl-dev"
command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox" # make reproduce-NNN
for tool in cc make; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing build-essential"
done
[ -z "$missing" ] && exit 0
# shellcheck disable=SC2086,SC2046 # word splitting of the package list is wanted
set -- $(printf '%s\n' $missing | sort -u)
if [ "$(id -u)" -ne 0 ]; then
    echo "missing build dependencies; install them with:" >&2
    echo "  sudo apt-get install -y $*" >&2
    exit 1
fi
echo "installing build dependencies: $*" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null && apt-get install -y --no-install-recommends "$@" >/dev/null; } ||
    { echo "apt-get install $* failed" >&2; exit 1; }
