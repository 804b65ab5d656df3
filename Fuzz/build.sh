#!/bin/sh
# Builds the libFuzzer targets of OrientationCore's parsers (see Fuzz/README.md).
#
#   Fuzz/build.sh [target...]        default: every target in Fuzz/targets
#
# FUZZ_BUILD (default /tmp/mo-fuzz-build) receives the core as a static library
# (libOrientationCore.a + its module) and one executable per target, fuzz-<target>.
# Instrumentation: -sanitize=fuzzer,address (libFuzzer and ASan come with the Swift
# toolchain's clang runtime, lib/clang/*/lib/linux/libclang_rt.{fuzzer,asan}-x86_64.a).
set -eu
cd "$(dirname "$0")/.."
FUZZ_BUILD=${FUZZ_BUILD:-/tmp/mo-fuzz-build}
SWIFTC=${SWIFTC:-swiftc}
FLAGS="-sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld"
TARGETS=${*:-$(cat Fuzz/targets)}
mkdir -p "$FUZZ_BUILD"

echo "fuzz: building OrientationCore into $FUZZ_BUILD"
# shellcheck disable=SC2086 # FLAGS is a list of flags
$SWIFTC $FLAGS -module-name OrientationCore -emit-module \
    -emit-module-path "$FUZZ_BUILD/OrientationCore.swiftmodule" \
    -emit-library -static -o "$FUZZ_BUILD/libOrientationCore.a" Sources/OrientationCore/*.swift

for target in $TARGETS; do
    echo "fuzz: building fuzz-$target"
    # shellcheck disable=SC2086
    $SWIFTC $FLAGS -I "$FUZZ_BUILD" -L "$FUZZ_BUILD" -lOrientationCore \
        Fuzz/FuzzSupport.swift "Fuzz/$target.swift" -o "$FUZZ_BUILD/fuzz-$target"
done
