#!/usr/bin/env bash
# docs/fio-compat.md is generated from the option catalogue and committed:
# the catalogue must be consistent (no option both implemented and listed
# as unknown to storbench), the committed page must be what the catalogue
# generates now, and when fio is installed the page must list each of its
# options exactly once.
set -u
source "$(dirname "$0")/../tap/tap.sh"

plan 7

GEN=$SB_BUILD_DIR/bin/sb_fio_compat
DOC=$SB_SOURCE_DIR/docs/fio-compat.md
REGEN="cmake --build $SB_BUILD_DIR --target fio-compat-doc"
[[ -x $GEN ]] || bail "$GEN is missing: build the sb_fio_compat target"

err=$("$GEN" --check 2>&1 >/dev/null) && rc=0 || rc=$?
is "$rc" 0 "the option catalogue passes its checks"
is "$err" "" "the catalogue check reports no problem"

sb_tmpdir
"$GEN" >"$SB_TMPDIR/fio-compat.md" || true
ok "docs/fio-compat.md is what the catalogue generates" \
	cmp -s "$DOC" "$SB_TMPDIR/fio-compat.md"
if ((!TAP_LAST_OK)); then
	diag "docs/fio-compat.md is stale or missing: regenerate it with"
	diag "  $REGEN"
	diag "and commit the result. The difference:"
	diag "$(diff -u "$DOC" "$SB_TMPDIR/fio-compat.md" 2>&1 | head -40)"
fi

# The rows of the Options table: "| section | `name` | alias | status |...".
rows=$(awk '/^## /{t = ($0 == "## Options")} t && /^\| [^-]/' \
	"$SB_TMPDIR/fio-compat.md" | tail -n +2)
names=$(awk -F'|' '{ gsub(/[ `]/, "", $3); print $3 }' <<<"$rows" | sort)
bad_status=$(awk -F'|' '{ s = $5; gsub(/^ +| +$/, "", s) }
	s !~ /^(supported|partial|not supported|ignored)$/ { print $3 ":" s }' \
	<<<"$rows")
is "$bad_status" "" "each option's status is supported, partial, not supported or ignored"
total=$(sed -n 's/^| total | \([0-9]*\) |$/\1/p' "$SB_TMPDIR/fio-compat.md")
is "$total" "$(wc -l <<<"$names" | tr -d ' ')" \
	"the counts add up to the rows of the table"

want=$(sed -n 's/^#define SB_FIO_CATALOGUE_VERSION "\(.*\)"$/\1/p' \
	"$SB_SOURCE_DIR/core/src/options/catalogue.h")
if ! command -v fio >/dev/null 2>&1; then
	skip 2 "fio is not installed"
elif [[ $(fio --version) != "fio-$want" ]]; then
	skip 2 "the catalogue lists fio $want's options, not $(fio --version)'s"
else
	fio_names=$(fio --cmdhelp=all | sed -n 's/^ *\([^ :]*\) *:.*/\1/p' |
		sort)
	missing=$(comm -23 <(sort -u <<<"$fio_names") <(sort -u <<<"$names"))
	twice=$(uniq -d <<<"$names")
	problems=$({
		[[ -z $missing ]] || sed 's/^/missing: /' <<<"$missing"
		[[ -z $twice ]] || sed 's/^/twice: /' <<<"$twice"
	})
	is "$problems" "" "each option of fio --cmdhelp=all is in the page once"
	extra=$(comm -13 <(sort -u <<<"$fio_names") <(sort -u <<<"$names"))
	is "$extra" "" "the page lists no option that fio does not have"
fi

done_testing
