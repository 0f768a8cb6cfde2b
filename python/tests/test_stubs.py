"""The type stubs describe the compiled module: every public name, every
function's parameters and defaults, every class's public attributes."""

import ast
import inspect
from pathlib import Path

import pytest

import aerolin
from aerolin import _aerolin

STUB = ast.parse((Path(aerolin.__file__).parent / "_aerolin.pyi").read_text())
FUNCTIONS = {}
CLASSES = {}
for node in STUB.body:
    if isinstance(node, ast.FunctionDef):
        FUNCTIONS.setdefault(node.name, node)  # the first of overloads
    elif isinstance(node, ast.ClassDef):
        CLASSES[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
            n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}


def split_top_level(text):
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "[(" and 1 or ch in "])" and -1 or 0
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def runtime_parameters(function):
    """(name, default) pairs from pybind11's signature line of the docstring."""
    first = function.__doc__.splitlines()[0]
    inside = first[first.index("(") + 1:first.rindex(") ->")]
    out = []
    for part in split_top_level(inside):
        name = part.split(":")[0].strip()
        default = part.split(" = ")[1] if " = " in part else None
        out.append((name, default))
    return out


def stub_parameters(node):
    args = node.args.args
    defaults = [None] * (len(args) - len(node.args.defaults)) + list(node.args.defaults)
    return [(a.arg, None if d is None else ast.literal_eval(d)) for a, d in zip(args, defaults)]


def test_every_public_name_is_stubbed():
    public = set(aerolin.__all__)
    assert public == set(FUNCTIONS) | set(CLASSES) - {"FloatArray", "ComplexArray"}
    assert public == {n for n in dir(_aerolin) if not n.startswith("_")}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_parameters_match(name):
    runtime = runtime_parameters(getattr(aerolin, name))
    stub = stub_parameters(FUNCTIONS[name])
    assert [n for n, _ in runtime] == [n for n, _ in stub]
    for (n, rd), (_, sd) in zip(runtime, stub):
        if sd is None:
            assert rd in (None, "None"), n
        else:
            assert ast.literal_eval(rd) == sd, n


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_class_attributes_match(name):
    cls = getattr(aerolin, name)
    if issubclass(cls, BaseException):
        return  # `defects` is set per instance
    runtime = {n for n in vars(cls) if not n.startswith("_")}
    stub = {n for n in CLASSES[name] if not n.startswith("_")}
    assert runtime == stub


def test_docstrings_everywhere():
    for name in aerolin.__all__:
        item = getattr(aerolin, name)
        assert inspect.getdoc(item), name
