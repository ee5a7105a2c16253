#!/usr/bin/env bash
# Makes glossary_VERSION_ARCH.deb in OUTPUT_DIR from the static binary (`make deb` runs it; README, "Install").
#
#   packaging/deb/build-deb.sh BINARY VERSION OUTPUT_DIR
#
# The completions and manual pages come from the binary itself (`glossary completion SHELL`, `glossary man DIR`);
# Depends is what dpkg-shlibdeps finds the binary linked against, plus libcurl4 (loaded with dlopen when a build
# first fetches, so not linked; 7.85 or later for curl_easy_header and CURLOPT_PROTOCOLS_STR), libmicrohttpd12
# (loaded with dlopen when `glossary serve` starts its server; 0.9.75, the version it is built and tested with) and
# wordnet-base (WordNet's data, read at run time). dpkg-deb --root-owner-group makes every file root's, so no root or fakeroot is
# needed to build it.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 BINARY VERSION OUTPUT_DIR" >&2
    exit 64
fi
binary=$1
version=$2
output=$3
here=$(cd "$(dirname "$0")" && pwd)
repository=$(cd "$here/../.." && pwd)
architecture=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-The Glossary authors <glossary@example.org>}
# The changelog's date: the last commit's, so the same tree gives the same package (SOURCE_DATE_EPOCH wins).
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$repository" log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH=$epoch

work=$(mktemp -d "${TMPDIR:-/tmp}/glossary-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
umask 022
root=$work/root
doc=$root/usr/share/doc/glossary
man=$root/usr/share/man/man1
install -d "$root/DEBIAN" "$root/usr/bin" "$doc" "$man" "$root/usr/share/bash-completion/completions" \
    "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"

install -m 0755 "$binary" "$root/usr/bin/glossary"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/glossary"
glossary=$root/usr/bin/glossary

"$glossary" completion bash >"$root/usr/share/bash-completion/completions/glossary"
"$glossary" completion zsh >"$root/usr/share/zsh/vendor-completions/_glossary"
"$glossary" completion fish >"$root/usr/share/fish/vendor_completions.d/glossary.fish"
"$glossary" man "$work/man" >/dev/null
for page in "$work"/man/*.1; do
    gzip -9n <"$page" >"$man/$(basename "$page").gz"
done

gzip -9n <"$repository/README.md" >"$doc/README.md.gz"
install -m 0644 "$here/copyright" "$doc/copyright"
{
    echo "glossary ($version) unstable; urgency=medium"
    echo
    echo "  * Glossary $version, built from the repository's source (README.md)."
    echo
    echo " -- $maintainer  $(date -u -R -d "@$epoch")"
} | gzip -9n >"$doc/changelog.gz"
chmod -R u=rwX,go=rX "$root"

# dpkg-shlibdeps reads debian/control, so it runs in a folder that has one.
mkdir -p "$work/debian"
printf 'Source: glossary\n\nPackage: glossary\nArchitecture: any\n' >"$work/debian/control"
libraries=$(cd "$work" && dpkg-shlibdeps -O "root/usr/bin/glossary" 2>"$work/shlibdeps.log") || {
    cat "$work/shlibdeps.log" >&2
    exit 1
}
depends=${libraries#shlibs:Depends=}
installed_size=$(du -sk --apparent-size "$root/usr" | cut -f1)

cat >"$root/DEBIAN/control" <<EOF
Package: glossary
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends, libcurl4 (>= 7.85.0), libmicrohttpd12 (>= 0.9.75), wordnet-base
Recommends: ca-certificates
Section: web
Priority: optional
Description: static site generator for dictionary glossaries
 Glossary renders markdown pages that reference words as [[word]] into a
 static site: every page with its terms linked, a page per term with its
 definition, an A-Z index and a dictionary search page, with a dark mode
 and a font switcher. Definitions come from the team's own entries, a
 cache that can be committed, the Free Dictionary API and WordNet.
 'glossary serve' previews the site and reloads it as files change.
EOF
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$output"
package=$output/glossary_${version}_${architecture}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$package" >/dev/null
echo "$package"
