#!/bin/sh
# An external importer for timetrack-admin (protocol 1, docs/external-importers.md), in POSIX sh
# and awk: a CSV export with the columns title,url,section,type (a header row first; quoted
# fields may hold commas) becomes School Info items. The page comes through the tool's fetcher.
set -eu

# The start line: the source definition and the run. Its url, and options.section.
read -r start
url=$(printf '%s\n' "$start" | sed -n 's/.*"url":"\([^"]*\)".*/\1/p')
base=$(printf '%s\n' "$start" | sed -n 's/.*"baseURL":"\([^"]*\)".*/\1/p')
section=$(printf '%s\n' "$start" | sed -n 's/.*"section":"\([^"]*\)".*/\1/p')
case "$url" in *://*) ;; *) url=${base:-$url} ;; esac

# Ask the tool for the page; the answer is one JSON line whose "text" holds the CSV.
printf '{"fetch":"%s"}\n' "$url"
read -r answer

printf '%s\n' "$answer" | awk -v fallback="${section:-other}" '
function unescape(s,    out, i, c, n) {
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c != "\\") { out = out c; continue }
        i++; n = substr(s, i, 1)
        if (n == "n") out = out "\n"; else if (n == "t") out = out "\t"; else if (n == "r") out = out "";
        else if (n == "u") { out = out "?"; i += 4 } else out = out n
    }
    return out
}
function quote(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return "\"" s "\"" }
function field(line, n,    i, c, inq, count, cur) {
    count = 1; cur = ""; inq = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (inq) { if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ } else inq = 0 } else cur = cur c }
        else if (c == "\"") inq = 1
        else if (c == ",") { if (count == n) return cur; count++; cur = "" }
        else cur = cur c
    }
    return count == n ? cur : ""
}
{
    if (index($0, "\"error\":") > 0) { print "{\"problem\":{\"severity\":\"error\",\"message\":\"the CSV could not be fetched\"}}"; exit 0 }
    start = index($0, "\"text\":\"")
    if (start == 0) { print "{\"problem\":{\"severity\":\"error\",\"message\":\"no text in the answer\"}}"; exit 0 }
    rest = substr($0, start + 8)
    # The text ends at the first quote not escaped.
    text = ""
    for (i = 1; i <= length(rest); i++) {
        c = substr(rest, i, 1)
        if (c == "\\") { text = text c substr(rest, i + 1, 1); i++; continue }
        if (c == "\"") break
        text = text c
    }
    count = split(unescape(text), lines, "\n")
    row = 0
    for (l = 1; l <= count; l++) {
        line = lines[l]
        if (line == "") continue
        row++
        if (row == 1) continue
        title = field(line, 1); link = field(line, 2); sec = field(line, 3); type = field(line, 4)
        if (title == "" || link == "") { print "{\"problem\":{\"message\":" quote("row " row " has no title or url; skipped") "}}"; continue }
        if (sec == "") sec = fallback
        out = "{\"item\":{\"key\":" quote(link) ",\"title\":" quote(title) ",\"url\":" quote(link) ",\"section\":" quote(sec)
        if (type != "") out = out ",\"type\":" quote(type)
        print out "}}"
    }
}'
