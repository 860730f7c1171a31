#!/bin/sh
# Installs a pi-session release executable from local files (nothing is downloaded):
# picks the file for this machine, checks it against SHA256SUMS, refuses to replace a
# newer installed version unless forced, and adds completions for the user's shell.
set -eu
LC_ALL=C
export LC_ALL

usage() {
  cat <<'EOF'
Usage: install.sh [options] SOURCE

Installs pi-session from SOURCE, which is either
  a release directory   the pi-session-<version>-<os>-<arch> files and their SHA256SUMS
                        (made by `npm run release`); the file for this machine is used
  one release file      checked against the SHA256SUMS in the same directory

Options:
  --prefix DIR       install DIR/bin/pi-session (default ~/.local: ~/.local/bin/pi-session)
  --force            replace the installed pi-session even when it is newer
  --no-verify        install a file that has no SHA256SUMS next to it, unchecked
  --no-completions   do not install shell completions
  -h, --help         show this help

When $SHELL is bash, zsh or fish, its completions are installed under DIR/share:
  bash  DIR/share/bash-completion/completions/pi-session
  zsh   DIR/share/zsh/site-functions/_pi-session
  fish  DIR/share/fish/vendor_completions.d/pi-session.fish

Exit status: 0 installed; 1 refused or failed, leaving any installed pi-session as it was;
2 bad usage.
EOF
}

die() {
  printf 'install.sh: %s\n' "$*" >&2
  exit 1
}

usage_error() {
  printf 'install.sh: %s\nRun `install.sh --help` for usage.\n' "$*" >&2
  exit 2
}

# --- arguments ---------------------------------------------------------------------------

prefix=""
force=0
verify=1
completions=1
source=""
while [ $# -gt 0 ]; do
  case $1 in
    --prefix)
      [ $# -ge 2 ] || usage_error "--prefix needs a directory"
      prefix=$2
      shift 2
      ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --force) force=1; shift ;;
    --no-verify) verify=0; shift ;;
    --no-completions) completions=0; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) usage_error "unknown option $1" ;;
    *)
      [ -z "$source" ] || usage_error "one SOURCE only, got \"$source\" and \"$1\""
      source=$1
      shift
      ;;
  esac
done
[ -n "$source" ] || usage_error "no SOURCE given (a release directory or file)"
[ -e "$source" ] || die "\"$source\" does not exist"
if [ -z "$prefix" ]; then
  [ -n "${HOME:-}" ] || die "HOME is not set; pass --prefix DIR"
  prefix=$HOME/.local
fi
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
bindir=$prefix/bin
target=$bindir/pi-session

# --- helpers -----------------------------------------------------------------------------

# This machine as a release names it: <os>-<arch>, the names of scripts/release-targets.ts.
platform() {
  case $(uname -s) in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) die "no release for $(uname -s) here; on Windows run the .exe file directly" ;;
  esac
  case $(uname -m) in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "no release for $(uname -m) processors" ;;
  esac
  # An Intel shell under Rosetta on Apple silicon: the arm64 build runs natively.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  echo "$os-$arch"
}

# The names listed in a SHA256SUMS file (`HASH  NAME`, or `HASH *NAME` in binary mode).
listed_names() {
  awk '{ name = $2; sub(/^\*/, "", name); print name }' "$1"
}

# The hash SHA256SUMS $1 lists for file name $2, or nothing.
listed_hash() {
  awk -v want="$2" '{ name = $2; sub(/^\*/, "", name); if (name == want) { print $1; exit } }' "$1"
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    die "cannot check the file: neither sha256sum nor shasum is installed"
  fi
}

# The version an executable reports: `pi-session 0.1.0 (3c3419c)` (or a bare `0.1.0`) gives
# 0.1.0; nothing when it does not run or prints something else.
version_of() {
  { "$1" --version 2>/dev/null || true; } | sed -n 's/^\(pi-session \)\{0,1\}\([0-9][0-9A-Za-z.+-]*\).*$/\2/p' | head -n 1
}

is_number() {
  case $1 in '' | *[!0-9]*) return 1 ;; *) return 0 ;; esac
}

# Compares dot-separated identifier lists the way semantic versioning orders them: numbers
# numerically, below words; words in ASCII order; a list that is a prefix of the other first.
# Prints -1, 0 or 1.
compare_identifiers() {
  ci_left=$1
  ci_right=$2
  while :; do
    if [ -z "$ci_left" ] && [ -z "$ci_right" ]; then echo 0; return; fi
    if [ -z "$ci_left" ]; then echo -1; return; fi
    if [ -z "$ci_right" ]; then echo 1; return; fi
    ci_a=${ci_left%%.*}
    ci_b=${ci_right%%.*}
    case $ci_left in *.*) ci_left=${ci_left#*.} ;; *) ci_left="" ;; esac
    case $ci_right in *.*) ci_right=${ci_right#*.} ;; *) ci_right="" ;; esac
    if is_number "$ci_a" && is_number "$ci_b"; then
      if [ "$ci_a" -lt "$ci_b" ]; then echo -1; return; fi
      if [ "$ci_a" -gt "$ci_b" ]; then echo 1; return; fi
    elif is_number "$ci_a"; then
      echo -1; return
    elif is_number "$ci_b"; then
      echo 1; return
    elif [ "$ci_a" != "$ci_b" ]; then
      if [ "$(expr "x$ci_a" \< "x$ci_b")" = 1 ]; then echo -1; else echo 1; fi
      return
    fi
  done
}

# Semantic version precedence of $1 against $2 (-1, 0, 1): the numbers first, then a
# pre-release (1.0.0-rc.1) below its release; build metadata (+…) is ignored.
compare_versions() {
  cv_a=${1%%+*}
  cv_b=${2%%+*}
  cv_order=$(compare_identifiers "${cv_a%%-*}" "${cv_b%%-*}")
  if [ "$cv_order" != 0 ]; then echo "$cv_order"; return; fi
  case $cv_a in *-*) cv_pre_a=${cv_a#*-} ;; *) cv_pre_a="" ;; esac
  case $cv_b in *-*) cv_pre_b=${cv_b#*-} ;; *) cv_pre_b="" ;; esac
  if [ -z "$cv_pre_a" ] && [ -z "$cv_pre_b" ]; then echo 0
  elif [ -z "$cv_pre_a" ]; then echo 1
  elif [ -z "$cv_pre_b" ]; then echo -1
  else compare_identifiers "$cv_pre_a" "$cv_pre_b"
  fi
}

# --- which file, and its checksum ----------------------------------------------------------

if [ -d "$source" ]; then
  sums=$source/SHA256SUMS
  [ -f "$sums" ] || die "no SHA256SUMS in $source; is it a release directory?"
  machine=$(platform)
  candidates=$(listed_names "$sums" | grep -E "^pi-session-.+-$machine\$" || true)
  case $candidates in
    "") die "$sums lists no pi-session for $machine" ;;
    *"
"*) die "$sums lists several pi-session files for $machine; pass the one to install: $(echo $candidates)" ;;
  esac
  file=$source/$candidates
  [ -f "$file" ] || die "$file is listed in SHA256SUMS but missing"
else
  file=$source
  sums=$(dirname "$file")/SHA256SUMS
  if [ ! -f "$sums" ]; then
    [ "$verify" = 0 ] || die "no SHA256SUMS next to $file to check it against; pass --no-verify to install it unchecked"
    sums=""
  fi
fi

mkdir -p "$bindir"
# Copy first, then check and run the copy: what is checked is exactly what gets installed.
staged=$bindir/.pi-session.install.$$
comp_staged=""
trap 'rm -f "$staged" ${comp_staged:+"$comp_staged"}' EXIT
trap 'exit 1' HUP INT TERM
cp "$file" "$staged"
chmod 755 "$staged"

if [ -n "$sums" ]; then
  name=$(basename "$file")
  expected=$(listed_hash "$sums" "$name")
  [ -n "$expected" ] || die "$sums does not list $name; not installing an unchecked file"
  actual=$(sha256_of "$staged")
  [ "$actual" = "$expected" ] || die "checksum mismatch for $file: SHA256SUMS says $expected, the file is $actual; not installing it (damaged or not the released file)"
  echo "checksum ok: $name"
fi

new_version=$(version_of "$staged")
[ -n "$new_version" ] || die "$file does not run on this machine or is not pi-session (no version from --version)"

# --- never downgrade by accident ----------------------------------------------------------

if [ -e "$target" ]; then
  old_version=$(version_of "$target")
  if [ -z "$old_version" ]; then
    [ "$force" = 1 ] || die "$target exists but reports no pi-session version; pass --force to replace it"
  elif [ "$(compare_versions "$old_version" "$new_version")" = 1 ]; then
    [ "$force" = 1 ] || die "$target is version $old_version, newer than $new_version; pass --force to downgrade"
    echo "downgrading pi-session $old_version to $new_version (--force)"
  elif [ "$old_version" = "$new_version" ]; then
    echo "reinstalling pi-session $new_version"
  else
    echo "replacing pi-session $old_version with $new_version"
  fi
fi
mv -f "$staged" "$target"
echo "installed pi-session $new_version: $target"

# --- completions ---------------------------------------------------------------------------

shell_name=${SHELL:-}
shell_name=${shell_name##*/}
case $shell_name in
  bash) completion_file=$prefix/share/bash-completion/completions/pi-session ;;
  zsh) completion_file=$prefix/share/zsh/site-functions/_pi-session ;;
  fish) completion_file=$prefix/share/fish/vendor_completions.d/pi-session.fish ;;
  *) completion_file="" ;;
esac
if [ "$completions" = 0 ]; then
  :
elif [ -z "$completion_file" ]; then
  echo "no completions installed: \$SHELL (${SHELL:-unset}) is not bash, zsh or fish; see \`pi-session completions --help\`"
else
  completion_dir=$(dirname "$completion_file")
  mkdir -p "$completion_dir"
  comp_staged=$completion_file.install.$$
  if "$target" completions "$shell_name" >"$comp_staged" 2>/dev/null; then
    mv -f "$comp_staged" "$completion_file"
    echo "$shell_name completions: $completion_file"
    case $shell_name in
      zsh) echo "  zsh reads them when $completion_dir is on \$fpath: add  fpath=($completion_dir \$fpath)  before compinit in ~/.zshrc" ;;
      # ~/.local/share is where bash-completion and fish look for a user's own completions.
      bash) [ "$prefix" = "${HOME:-}/.local" ] || echo "  if bash does not pick them up, add  source $completion_file  to ~/.bashrc" ;;
      fish) [ "$prefix" = "${HOME:-}/.local" ] || echo "  if fish does not pick them up, copy them to ~/.config/fish/completions/" ;;
    esac
  else
    echo "warning: $target could not write $shell_name completions; pi-session itself is installed" >&2
  fi
fi

# --- PATH ----------------------------------------------------------------------------------

case ":${PATH:-}:" in
  *":$bindir:"*) ;;
  *)
    echo "$bindir is not on your PATH; to add it:"
    case $shell_name in
      bash) echo "  echo 'export PATH=\"$bindir:\$PATH\"' >> ~/.bashrc" ;;
      zsh) echo "  echo 'export PATH=\"$bindir:\$PATH\"' >> ~/.zshrc" ;;
      fish) echo "  fish_add_path $bindir" ;;
      *) echo "  echo 'export PATH=\"$bindir:\$PATH\"' >> ~/.profile" ;;
    esac
    ;;
esac
