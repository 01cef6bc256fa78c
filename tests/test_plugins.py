"""Catalog plug-ins: distributions with an ``errcat.catalogs`` entry point join the default catalog.

Each test builds small distributions (a package and its ``.dist-info`` with
``entry_points.txt``) in a temporary directory put on ``sys.path``, which is
where ``importlib.metadata`` finds installed distributions.
"""

from __future__ import annotations

import importlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import errcat
import errcat.default as default_module
from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.cli import main
from errcat.loaders import dump_envelope
from errcat.plugins import GROUP, PluginWarning, installed_entry_points

MESSAGE = "the flux capacitor of unit {unit} needs 1.21 gigawatts"
PATTERN = "the flux capacitor of unit (.+?) needs 1\\.21 gigawatts"
TEXT = "RuntimeError: the flux capacitor of unit 'delorean' needs 1.21 gigawatts"


def _record_line(rid: str) -> str:
    return dump_envelope(
        make_envelope(
            id=rid,
            slug=f"flux-{rid[:4]}",
            errorClass="RuntimeError",
            errorMessage=MESSAGE,
            messagePattern=PATTERN,
            repo="example/flux",
        )
    )


def _distribution(site: Path, dist: str, package: str, entry: str, files: dict[str, str]) -> None:
    """A distribution ``dist`` with package ``package`` and entry point ``entry`` (name = value)."""
    for name, text in files.items():
        path = site / package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"  # as installers name it
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entry}\n", encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "site"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    monkeypatch.setattr(default_module, "_default", None)  # forget the default catalog
    yield path
    for name in [m for m in sys.modules if m.startswith("flux_")]:
        del sys.modules[name]
    importlib.invalidate_caches()


def _callable_plugin(site: Path) -> None:
    _distribution(
        site,
        "flux-catalog",
        "flux_catalog",
        "flux = flux_catalog:catalog_paths",
        {
            "__init__.py": (
                "from pathlib import Path\n\n"
                "def catalog_paths():\n"
                "    return [Path(__file__).with_name('flux.jsonl')]\n"
            ),
            "flux.jsonl": _record_line("f1f1f1f1f1f1f1f1") + "\n",
        },
    )


def test_an_installed_catalog_joins_the_default_catalog(site: Path) -> None:
    _callable_plugin(site)
    assert [ep.name for ep in installed_entry_points()] == ["flux"]
    m = errcat.match_error(TEXT)
    assert m is not None and m.record.id == "f1f1f1f1f1f1f1f1"
    assert m.params == {"unit": "'delorean'"}
    default = Catalog.default()
    assert len(default) == len(Catalog.bundled()) + 1
    assert default.data_version == Catalog.bundled().data_version
    assert errcat.lookup("f1f1f1f1f1f1f1f1").repo == "example/flux"
    assert errcat.match_error(TEXT, catalog=Catalog.bundled()) is None  # catalog= is kept
    out, err = io.StringIO(), io.StringIO()
    assert main(["match", TEXT], stdout=out, stderr=err) == 0
    assert "f1f1f1f1f1f1f1f1" in out.getvalue()


def test_no_bundled_leaves_plugins_out_too(site: Path, tmp_path: Path) -> None:
    _callable_plugin(site)
    other = tmp_path / "other.jsonl"
    other.write_text(dump_envelope(make_envelope()) + "\n", encoding="utf-8")
    out = io.StringIO()
    code = main(["match", "--no-bundled", "--catalog", str(other), TEXT], stdout=out)
    assert code == 1
    assert "f1f1f1f1f1f1f1f1" not in out.getvalue()


def test_a_package_resource_directory_is_a_catalog(site: Path) -> None:
    line = _record_line("f2f2f2f2f2f2f2f2")
    manifest = {
        "dataVersion": "2026-01-01T00:00:00.000Z",
        "schemaVersion": 2,
        "count": 1,
        "files": {"records/example__flux.jsonl": {"count": 1}},
    }
    _distribution(
        site,
        "flux-data",
        "flux_data",
        "fluxdata = flux_data",
        {
            "__init__.py": "",
            "manifest.json": json.dumps(manifest),
            "records/example__flux.jsonl": line + "\n",
        },
    )
    m = errcat.match_error(TEXT)
    assert m is not None and m.record.id == "f2f2f2f2f2f2f2f2"


def test_a_broken_plugin_is_reported_and_skipped(site: Path) -> None:
    _callable_plugin(site)
    _distribution(site, "flux-broken", "flux_broken", "oops = flux_missing_module:data", {})
    _distribution(
        site,
        "flux-wrong",
        "flux_wrong",
        "wrong = flux_wrong:answer",
        {"__init__.py": "def answer():\n    return 42\n"},
    )
    with pytest.warns(PluginWarning) as caught:
        m = errcat.match_error(TEXT)
    assert m is not None and m.record.id == "f1f1f1f1f1f1f1f1"  # the good one still loads
    messages = sorted(str(w.message) for w in caught)
    assert len(messages) == 2
    assert "'oops' (flux_missing_module:data) of distribution 'flux-broken'" in messages[0]
    assert "ModuleNotFoundError" in messages[0]
    assert "'wrong' (flux_wrong:answer) of distribution 'flux-wrong'" in messages[1]
    assert "it gave a int, not a Catalog" in messages[1]


def test_a_plugin_record_overrides_a_bundled_one(site: Path) -> None:
    bundled_id = next(iter(Catalog.bundled())).id
    _distribution(
        site,
        "flux-override",
        "flux_override",
        "over = flux_override:catalog",
        {
            "__init__.py": (
                "from errcat import Catalog\n"
                "from errcat.models import RecordEnvelope\n\n"
                f"LINE = {_record_line(bundled_id)!r}\n\n"
                "def catalog():\n"
                "    return Catalog([RecordEnvelope.model_validate_json(LINE)])\n"
            )
        },
    )
    assert Catalog.default()[bundled_id].repo == "example/flux"
    assert len(Catalog.default()) == len(Catalog.bundled())


def test_the_cheap_precheck_finds_a_declaring_distribution_and_only_then(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """importlib.metadata is imported only when some dist-info declares the group."""
    from errcat.plugins import _may_declare_plugins, installed_entry_points

    info = tmp_path / "other-1.0.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text("[console_scripts]\nother = other:main\n")
    (tmp_path / "plain.egg-info").mkdir()  # no entry_points.txt at all
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "missing"), ""])
    assert not _may_declare_plugins()
    assert installed_entry_points() == []
    (info / "entry_points.txt").write_text("[errcat.catalogs]\nother = other_data\n")
    assert _may_declare_plugins()
    assert [ep.name for ep in installed_entry_points()] == ["other"]


def test_a_distribution_without_metadata_is_listed_without_a_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A dist-info without METADATA has no name: Python 3.12+ warns that asking will raise."""
    import importlib.metadata
    from types import SimpleNamespace

    from errcat import plugins

    class Nameless:
        @property
        def metadata(self) -> dict[str, str]:
            return {}  # no METADATA file

        @property
        def name(self) -> str:
            raise KeyError("Name")  # what the warning announces

    found = [
        SimpleNamespace(name="b", value="b_data", dist=Nameless()),
        SimpleNamespace(name="a", value="a_data", dist=SimpleNamespace(metadata={"Name": "z"})),
    ]
    monkeypatch.setattr(plugins, "_may_declare_plugins", lambda: True)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: found)
    assert [ep.name for ep in plugins.installed_entry_points()] == ["b", "a"]
