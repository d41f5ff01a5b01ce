#!/usr/bin/env bash
# "makemessages clean": every string marked for translation is in the committed catalogs
# (locale/{en,ru,zh_Hans}/LC_MESSAGES/django.po). Regenerates them from the code and templates,
# then fails if that changed anything but the POT-Creation-Date stamp, or if a catalog has an
# untranslated or fuzzy entry (English needs none: its msgids are the text).
# `scripts/check_messages.sh --update` only regenerates, for a developer to translate and commit.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}

# No location comments: moving a string within a file must not churn the catalogs.
LOG_LEVEL=WARNING "$PY" manage.py makemessages -v 0 -l en -l ru -l zh_Hans --no-location --no-obsolete \
  --ignore=.venv --ignore='.venv/*' --ignore=tests --ignore=bench --ignore=node_modules \
  --ignore=staticfiles --ignore=media --ignore=vault --ignore=docs --ignore=scripts

[ "${1:-}" = "--update" ] && exit 0

if ! git diff --exit-code -I 'POT-Creation-Date' -- locale/; then
  echo "locale/ is not what makemessages makes: run scripts/check_messages.sh --update," >&2
  echo "translate the new strings (ru, zh_Hans) and commit the catalogs." >&2
  exit 1
fi
if [ -n "$(git ls-files --others --exclude-standard -- locale/)" ]; then
  echo "new catalogs in locale/ are not committed:" >&2
  git ls-files --others --exclude-standard -- locale/ >&2
  exit 1
fi
for po in locale/ru/LC_MESSAGES/django.po locale/zh_Hans/LC_MESSAGES/django.po; do
  # msgfmt --statistics: "N translated messages[, M fuzzy translations][, K untranslated messages]."
  stats=$(msgfmt --check --statistics -o /dev/null "$po" 2>&1)
  if [[ "$stats" == *fuzzy* || "$stats" == *untranslated* ]]; then
    echo "$po: $stats" >&2
    exit 1
  fi
done
echo "messages: catalogs match the code; ru and zh_Hans fully translated"
