"""The HTML page of a log scan: one self-contained file (styles, chart and script inline).

The page holds, in order: what was scanned (files, lines, events, time span);
a timeline of the events, stacked by the largest groups (events per file when
the logs carry no timestamps); a table of the groups, most events first, with
a filter box; one section per group with its record, its advice (why,
solutions, example fix), where it occurred first and last, and per file its
count and first and last line, so the raw log can be found; and a table of
the files. Nothing is loaded from elsewhere (a Content-Security-Policy says so
to the browser). Its size grows with groups and files, not with events.

>>> from errcat.scan import ScanEvent
>>> from errcat.catalog import Catalog
>>> event = ScanEvent("a.log", 3, 5, "KeyError", "'k'", None, 0.0, False)
>>> page = render_page([event], catalog=Catalog([]))
>>> page.startswith("<!DOCTYPE html>") and "KeyError" in page
True
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Final

from errcat.report.chart import COLORS, OTHER_COLOR, per_file_svg, timeline_svg
from errcat.report.groups import EventGroup, FileRow, file_rows, group_events, group_key

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.scan import ScanEvent, ScanStats

__all__ = ["MAX_DETAILED_GROUPS", "ReportInfo", "render_page"]

#: Groups that get a section of their own (all of them are in the table).
MAX_DETAILED_GROUPS: Final = 200
#: Files listed openly in a group's section; more are folded.
_OPEN_PLACES: Final = 8
#: Characters of an example message shown.
_MESSAGE_CHARS: Final = 600

_CSS: Final = """
:root{--fg:#1d1d1f;--muted:#5f6368;--line:#d9dce0;--bg:#fff;--band:#f5f6f8;--accent:#0b57d0}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
background:var(--bg);margin:0 auto;max-width:1200px;padding:20px 24px 60px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px;border-bottom:1px solid
var(--line);padding-bottom:4px}h3{font-size:15px;margin:0 0 6px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:var(--band);padding:8px 10px;overflow-x:auto;border-radius:4px;white-space:pre-wrap}
.muted{color:var(--muted)}.facts{display:flex;flex-wrap:wrap;gap:8px 28px;margin:12px 0}
.facts div b{display:block;font-size:20px}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{text-align:left;padding:4px 8px;
border-bottom:1px solid var(--line);vertical-align:top}th{background:var(--band);cursor:pointer;
user-select:none;white-space:nowrap}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.chart{width:100%;height:auto;font-size:11px}.chart .grid{stroke:#eceef1}.chart .axis{stroke:#888}
.chart text{fill:var(--muted)}.legend{display:flex;flex-wrap:wrap;gap:4px 16px;margin:6px 0;
padding:0;list-style:none}.legend li{display:flex;gap:6px;align-items:center}
.sw{display:inline-block;width:11px;height:11px;border-radius:2px;flex:none}
section.group{border:1px solid var(--line);border-radius:6px;padding:12px 14px;margin:14px 0}
section.group:target{outline:2px solid var(--accent)}.count{font-weight:600}
.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;background:var(--band)}
.none{background:#fde7e7}.why{margin:6px 0}a{color:var(--accent)}
input[type=search]{width:100%;max-width:420px;padding:6px 8px;margin:6px 0;font:inherit}
details summary{cursor:pointer;color:var(--accent)}
"""

_SCRIPT: Final = """
(function(){
  var box=document.getElementById('filter');
  if(box){box.addEventListener('input',function(){
    var q=box.value.toLowerCase();var shown=0;
    document.querySelectorAll('#groups tbody tr').forEach(function(tr){
      var hit=tr.textContent.toLowerCase().indexOf(q)>=0;tr.hidden=!hit;if(hit){shown++;}});
    var out=document.getElementById('shown');if(out){out.textContent=shown;}
  });}
  document.querySelectorAll('table.sortable').forEach(function(table){
    table.querySelectorAll('th').forEach(function(th,col){
      th.addEventListener('click',function(){
        var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
        var down=th.getAttribute('data-dir')!=='desc';th.setAttribute('data-dir',down?'desc':'asc');
        rows.sort(function(a,b){
          var x=a.cells[col].getAttribute('data-v')||a.cells[col].textContent;
          var y=b.cells[col].getAttribute('data-v')||b.cells[col].textContent;
          var nx=parseFloat(x),ny=parseFloat(y);
          var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);return down?-c:c;});
        rows.forEach(function(r){body.appendChild(r);});
      });
    });
  });
  document.body.setAttribute('data-ready','1');
})();
"""

_CSP: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
)


@dataclass(frozen=True)
class ReportInfo:
    """What the report says about the scan beside the events."""

    title: str = "errcat scan report"
    #: Inputs as given on the command line.
    inputs: Sequence[str] = ()
    stats: ScanStats | None = None
    #: When the report was written (default: now, in UTC).
    generated: datetime | None = None


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _when(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S") if value is not None else ""


def _clip(text: str, limit: int = _MESSAGE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _shown(group: EventGroup, catalog: Catalog) -> tuple[str, str]:
    """The group's one-line title and its record's slug ("" when unanswered)."""
    record = catalog.get(group.record_id) if group.record_id else None
    if record is not None:
        return record.title, record.slug
    first = group.shape
    return (f"{group.error_class}: {first}" if first else f"{group.error_class} (no message)"), ""


def _advice_html(group: EventGroup, catalog: Catalog) -> str:
    from errcat.advice import Advice

    record = catalog.get(group.record_id) if group.record_id else None
    if record is None:
        return (
            '<p class="why"><span class="badge none">no record</span> No record in the catalog '
            "answers these events with confidence. The example message below and the lines "
            "listed show where to read them.</p>"
        )
    advice = Advice.from_record(record)
    parts = [
        f'<p class="muted">Raised at <a href="{_e(advice.source_url)}">{_e(advice.location)}</a>'
        f" · record <code>{_e(record.id)}</code>"
        + (" · advice generated from the source code" if advice.generated else "")
        + "</p>"
    ]
    if advice.documentation.strip():
        paragraphs = [p for p in advice.documentation.split("\n\n") if p.strip()]
        parts.extend(f'<p class="why">{_e(p)}</p>' for p in paragraphs)
    if advice.solutions:
        items = "".join(f"<li>{_e(s)}</li>" for s in advice.solutions)
        parts.append(f'<h3>Solutions</h3><ol class="solutions">{items}</ol>')
    if advice.example_fix.strip():
        parts.append(f"<h3>Example fix</h3><pre>{_e(advice.example_fix.rstrip())}</pre>")
    if advice.prevention_tips:
        items = "".join(f"<li>{_e(t)}</li>" for t in advice.prevention_tips)
        parts.append(f"<h3>Prevention</h3><ul>{items}</ul>")
    return "".join(parts)


def _places_html(group: EventGroup) -> str:
    rows = "".join(
        f'<tr><td class="mono">{_e(p.path)}</td><td class="n">{p.events}</td>'
        f'<td class="n">{p.first_line}</td><td class="n">{p.last_line}</td></tr>'
        for p in group.places
    )
    table = (
        '<table class="sortable places"><thead><tr><th>file</th><th class="n">events</th>'
        f'<th class="n">first line</th><th class="n">last line</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )
    if group.files <= _OPEN_PLACES:
        return table
    return f"<details><summary>{group.files} files</summary>{table}</details>"


def _group_section(number: int, group: EventGroup, catalog: Catalog, color: str) -> str:
    title, slug = _shown(group, catalog)
    first_path, first_line = group.first
    last_path, last_line = group.last
    times = ""
    if group.first_time is not None:
        times = f" · first at {_when(group.first_time)}, last at {_when(group.last_time)}"
    example = _clip(group.message) or "(no message)"
    return (
        f'<section class="group" id="g{number}" data-key="{_e(group.key)}">'
        f'<h3><span class="sw" style="background:{color}"></span> '
        f"{number}. {_e(_clip(title, 300))}</h3>"
        f'<p><span class="count">{group.events} event{"s" if group.events != 1 else ""}</span>'
        f" in {group.files} file{'s' if group.files != 1 else ''}{times}"
        + (f" · <code>{_e(slug)}</code>" if slug else "")
        + "</p>"
        f'<p class="muted">First: <span class="mono">{_e(first_path)}:{first_line}</span>'
        f' · last: <span class="mono">{_e(last_path)}:{last_line}</span></p>'
        + _advice_html(group, catalog)
        + f"<h3>Example message</h3><pre>{_e(group.error_class)}: {_e(example)}</pre>"
        + _places_html(group)
        + "</section>"
    )


def _series(groups: Sequence[EventGroup], catalog: Catalog) -> tuple[list[str], dict[str, int]]:
    """The chart's series (the largest groups, then "other") and each group key's series."""
    named = groups[: len(COLORS)]
    names = [
        _clip(_shown(g, catalog)[0], 90) + ("" if g.record_id else " (no record)") for g in named
    ]
    index = {g.key: i for i, g in enumerate(named)}
    if len(groups) > len(named):
        names.append(f"{len(groups) - len(named)} other groups")
    return names, index


def _chart_html(
    events: Sequence[ScanEvent],
    groups: Sequence[EventGroup],
    files: Sequence[FileRow],
    times: Mapping[tuple[str, int], datetime],
    catalog: Catalog,
) -> str:
    names, index = _series(groups, catalog)
    other = len(names) - 1 if len(names) > len(index) else 0

    def series_of(event: ScanEvent) -> int:
        return index.get(group_key(event), other)

    points = [
        (when, series_of(e))
        for e in events
        if (when := times.get((e.path, e.start_line))) is not None
    ]
    if points:
        svg = timeline_svg(points, names)
        missing = len(events) - len(points)
        note = (
            f'<p class="muted">{missing} event(s) without a timestamp are not drawn.</p>'
            if missing
            else ""
        )
        heading = "Timeline"
    else:
        position = {row.path: i for i, row in enumerate(files)}
        columns = [[0] * len(names) for _ in files]
        for e in events:
            columns[position[e.path]][series_of(e)] += 1
        svg = per_file_svg(columns, [row.path.rsplit("/", 1)[-1] for row in files], names)
        note = '<p class="muted">The logs carry no timestamps errcat reads: events per file.</p>'
        heading = "Events per file"
    legend = "".join(
        f'<li><span class="sw" style="background:{COLORS[i] if i < len(COLORS) else OTHER_COLOR}">'
        f"</span>"
        + (f'<a href="#g{i + 1}">{_e(name)}</a>' if i < len(index) else _e(name))
        + "</li>"
        for i, name in enumerate(names)
    )
    return f'<h2 id="timeline">{heading}</h2>{svg}<ul class="legend">{legend}</ul>{note}'


def _groups_table(groups: Sequence[EventGroup], catalog: Catalog) -> str:
    rows = []
    for number, g in enumerate(groups, 1):
        title, slug = _shown(g, catalog)
        link = (
            f'<a href="#g{number}">{_e(_clip(title, 160))}</a>'
            if number <= MAX_DETAILED_GROUPS
            else _e(_clip(title, 160))
        )
        record = (
            f"<code>{_e(g.record_id)}</code>"
            if g.record_id
            else '<span class="badge none">no record</span>'
        )
        first_seen = _when(g.first_time) or f"{g.first[0]}:{g.first[1]}"
        last_seen = _when(g.last_time) or f"{g.last[0]}:{g.last[1]}"
        rows.append(
            f'<tr><td class="n">{number}</td><td class="n">{g.events}</td>'
            f'<td class="n">{g.files}</td><td>{link}'
            + (f'<div class="muted mono">{_e(slug)}</div>' if slug else "")
            + f'</td><td>{record}</td><td class="mono">{_e(first_seen)}</td>'
            f'<td class="mono">{_e(last_seen)}</td></tr>'
        )
    return (
        '<input type="search" id="filter" placeholder="Filter groups (class, message, record)"'
        ' aria-label="Filter groups">'
        f' <span class="muted"><span id="shown">{len(groups)}</span> of {len(groups)} shown</span>'
        '<table id="groups" class="sortable"><thead><tr><th class="n">#</th>'
        '<th class="n">events</th><th class="n">files</th><th>error</th><th>record</th>'
        "<th>first</th><th>last</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )


def _files_table(files: Sequence[FileRow]) -> str:
    rows = "".join(
        f'<tr><td class="mono">{_e(f.path)}</td><td class="n">{f.events}</td>'
        f'<td class="n">{f.matched}</td><td class="n">{len(f.groups)}</td>'
        f'<td class="n">{f.first_line}</td><td class="n">{f.last_line}</td>'
        f'<td class="mono">{_e(_when(f.first_time))}</td>'
        f'<td class="mono">{_e(_when(f.last_time))}</td></tr>'
        for f in files
    )
    return (
        '<table id="files" class="sortable"><thead><tr><th>file</th><th class="n">events</th>'
        '<th class="n">answered</th><th class="n">groups</th><th class="n">first line</th>'
        '<th class="n">last line</th><th>first time</th><th>last time</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )


def _facts(
    events: Sequence[ScanEvent],
    groups: Sequence[EventGroup],
    times: Mapping[tuple[str, int], datetime],
    info: ReportInfo,
) -> str:
    stats = info.stats
    answered = sum(e.record_id is not None for e in events)
    facts = []
    if stats is not None:
        facts += [("files", f"{stats.files:,}"), ("lines", f"{stats.lines:,}")]
    facts += [
        ("events", f"{len(events):,}"),
        ("answered by a record", f"{answered:,}"),
        ("groups", f"{len(groups):,}"),
    ]
    if times:
        facts.append(("from", _when(min(times.values()))))
        facts.append(("to", _when(max(times.values()))))
    cells = "".join(f"<div><b>{_e(value)}</b>{_e(label)}</div>" for label, value in facts)
    notes = []
    if stats is not None and stats.incomplete:
        notes.append(f"{stats.incomplete} traceback(s) were cut before their exception line.")
    if stats is not None and stats.unreadable:
        notes.extend(f"Could not read {path}: {reason}" for path, reason in stats.unreadable)
    return f'<div class="facts">{cells}</div>' + "".join(
        f'<p class="muted">{_e(n)}</p>' for n in notes
    )


def render_page(
    events: Sequence[ScanEvent],
    *,
    catalog: Catalog,
    times: Mapping[tuple[str, int], datetime] | None = None,
    info: ReportInfo | None = None,
) -> str:
    """The report's HTML for ``events`` (answers read from ``catalog``)."""
    from errcat import __version__

    info = info or ReportInfo()
    when = times or {}
    groups = group_events(events, when)
    files = file_rows(events, when)
    generated = info.generated or datetime.now(tz=timezone.utc).replace(microsecond=0)
    data = catalog.data_version or "custom catalog"
    sections = "".join(
        _group_section(n, g, catalog, COLORS[n - 1] if n <= len(COLORS) else OTHER_COLOR)
        for n, g in enumerate(groups[:MAX_DETAILED_GROUPS], 1)
    )
    more = (
        f'<p class="muted">{len(groups) - MAX_DETAILED_GROUPS} smaller groups are in the table '
        "above only.</p>"
        if len(groups) > MAX_DETAILED_GROUPS
        else ""
    )
    inputs = ", ".join(info.inputs[:6]) + (
        f" and {len(info.inputs) - 6} more" if len(info.inputs) > 6 else ""
    )
    body = (
        f"<h1>{_e(info.title)}</h1>"
        f'<p class="muted">errcat {_e(__version__)}, data {_e(data)} · written '
        f"{_e(generated.isoformat())}"
        + (f" · {_e(inputs)}" if inputs else "")
        + "</p>"
        + _facts(events, groups, when, info)
        + (
            _chart_html(events, groups, files, when, catalog)
            if events
            else "<p>No exception events were found.</p>"
        )
        + (
            f'<h2 id="groups-h">Errors by record</h2>{_groups_table(groups, catalog)}'
            f"{sections}{more}"
            f'<h2 id="files-h">Files</h2>{_files_table(files)}'
            if events
            else ""
        )
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(info.title)}</title><style>{_CSS}</style></head>"
        f"<body>{body}<script>{_SCRIPT}</script></body></html>\n"
    )
