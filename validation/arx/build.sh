#!/bin/sh
# Builds ARX's core library (org.deidentifier.arx.*, no GUI) from a git copy of
# arx-deidentifier/arx, offline: the repository carries its dependency jars in lib/ant.
# Usage: validation/arx/build.sh ARX_GIT_DIR BUILD_DIR
#   ARX_GIT_DIR: a clone's .git directory or a bare repository (e.g. `git clone --bare
#   https://github.com/arx-deidentifier/arx`); BUILD_DIR: where to build (outside this repo).
# Prints the classpath to put in SDC_ARX_CLASSPATH (also written to BUILD_DIR/classpath.txt).
set -eu
GIT=$1
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
cd "$OUT"
git --git-dir="$GIT" archive HEAD src/main | tar x
# The jars one by one: a partial snapshot may lack some (hadoop-core, pdfbox-app,
# poi-ooxml-schemas); the stubs below stand in for the types ARX's code names from them.
for f in $(git --git-dir="$GIT" ls-tree -r --name-only HEAD lib/ant | grep '\.jar$'); do
    if git --git-dir="$GIT" cat-file -e "HEAD:$f" 2>/dev/null; then
        mkdir -p "$(dirname "$f")"
        git --git-dir="$GIT" cat-file blob "HEAD:$f" > "$f"
    fi
done
DEPS=$(find "$OUT/lib/ant" -name '*.jar' ! -path '*eclipse*' ! -path '*swt*' | sort | tr '\n' :)
find src/main -name '*.java' > sources.txt
# Compile-time stubs (our own, validation/arx/stubs) only for types missing from the jars
for s in $(cd "$HERE/stubs" && find . -name '*.java'); do
    cls=$(echo "$s" | sed 's|^\./||; s|\.java$||; s|/|.|g')
    if ! javap -cp "$DEPS" "$cls" >/dev/null 2>&1; then echo "$HERE/stubs/$s" >> sources.txt; fi
done
rm -rf classes && mkdir classes
javac -nowarn -encoding UTF-8 -source 8 -target 8 -d classes -cp "$DEPS" @sources.txt 2>&1 \
    | grep -v '^Note:\|^warning:\|^[0-9]* warning' || true
(cd src/main && find . -type f ! -name '*.java' -exec cp --parents {} ../../classes/ \;)  # resources
(cd classes && jar cf ../arx-core.jar .)
echo "$OUT/arx-core.jar:$DEPS" | sed 's/:$//' > classpath.txt
cat classpath.txt
