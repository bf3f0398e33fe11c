#!/usr/bin/env python3
"""An external importer for timetrack-admin (protocol 1, docs/external-importers.md).

Calendar pages whose events are drawn by JavaScript hold them as JSON in the page itself:
`var calendarEvents = [...]` or `<script type="application/json" id="...">`. This reads that
JSON (through the tool's fetcher: it asks with {"fetch": URL}) and prints one item per event.
Standard library only.
"""
import json
import re
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def fetch(url):
    send({"fetch": url})
    answer = json.loads(sys.stdin.readline())
    if "error" in answer:
        raise RuntimeError(answer["error"])
    return answer["text"]


def embedded_events(page, variable, script_id):
    if script_id:
        match = re.search(r'<script[^>]*id=["\']%s["\'][^>]*>(.*?)</script>' % re.escape(script_id), page, re.S)
        if not match:
            raise ValueError("no <script id=%r> in the page" % script_id)
        return json.loads(match.group(1))
    match = re.search(r'(?:var|let|const|window\.)\s*%s\s*=\s*' % re.escape(variable), page)
    if not match:
        raise ValueError("no JavaScript variable %r in the page" % variable)
    # The JSON value starts right after the '='; raw_decode stops at its end.
    value, _ = json.JSONDecoder().raw_decode(page, match.end())
    return value


def main():
    start = json.loads(sys.stdin.readline())
    source = start["source"]
    options = source.get("options", {})
    page = fetch(source["url"] if "://" in source["url"] else source.get("baseURL") or source["url"])
    try:
        events = embedded_events(page, options.get("variable", "calendarEvents"), options.get("scriptId"))
    except ValueError as error:
        send({"problem": {"severity": "error", "message": str(error)}})
        return
    if isinstance(events, dict):
        events = events.get("events", [])
    for index, event in enumerate(events):
        if not isinstance(event, dict) or not event.get("title"):
            send({"problem": {"message": "event %d has no title; skipped" % (index + 1)}})
            continue
        item = {
            "key": str(event.get("id", event["title"] + "|" + str(event.get("start")))),
            "title": event["title"],
            "start": event.get("start") or event.get("date"),
            "end": event.get("end"),
            "location": event.get("location"),
            "description": event.get("description"),
            "link": event.get("url"),
        }
        if "allDay" in event:
            item["allDay"] = bool(event["allDay"])
        send({"item": {k: v for k, v in item.items() if v is not None}})


if __name__ == "__main__":
    main()
