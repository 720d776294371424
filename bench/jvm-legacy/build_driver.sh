#!/bin/sh
# Builds the native driver against the core library of build/native (run cmake --build first).
set -e
cd "$(dirname "$0")/../.."
g++ -std=c++17 -O2 -Iwasm bench/jvm-legacy/legacy_driver.cpp build/native/libgcscope_core.a -lz -o build/native/legacy_driver
