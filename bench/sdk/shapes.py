"""Writes the response shapes the official Python SDK declares, as JSON Schema.

Run through bench/sdk/check.sh, with the SDK importable:

    SHAPES=1 SDK_PYTHON=<slash-sdk-python> bash bench/sdk/check.sh

The output maps each operation the SDK calls ("GET /card/{cardId}") to the
schema of its response: the fields the SDK requires, the JSON types and the
enum values it knows, and which fields may be null. Fields the SDK does not
declare are allowed, as the SDK itself allows them. The sandbox's tests check
every response of those operations against it.
"""

import datetime
import importlib
import json
import re
import subprocess
import sys
import typing

import typing_extensions

SDK = sys.argv[1]
schemas = {}


def ref(cls):
    name = cls.__module__.replace("slash_sdk.types.", "") + "." + cls.__name__
    if name not in schemas:
        schemas[name] = None  # claim the name before recursing
        schemas[name] = model(cls)
    return {"$ref": "#/components/schemas/" + name}


def is_model(tp):
    import pydantic

    return isinstance(tp, type) and issubclass(tp, pydantic.BaseModel)


def schema(tp):
    origin = typing_extensions.get_origin(tp)
    args = typing_extensions.get_args(tp)
    if origin is typing_extensions.Annotated:
        return schema(args[0])
    if origin is typing.Union:
        rest = [a for a in args if a is not type(None)]
        inner = schema(rest[0]) if len(rest) == 1 else {"anyOf": [schema(a) for a in rest]}
        if len(rest) < len(args):
            inner = dict(inner, nullable=True) if "$ref" not in inner else {"allOf": [inner], "nullable": True}
        return inner
    if origin is typing_extensions.Literal or origin is typing.Literal:
        kinds = {type(a) for a in args}
        out = {"enum": list(args)}
        if kinds == {str}:
            out["type"] = "string"
        elif kinds == {bool}:
            out["type"] = "boolean"
        return out
    if origin in (list, typing.List):
        return {"type": "array", "items": schema(args[0]) if args else {}}
    if origin in (dict, typing.Dict):
        return {"type": "object", "additionalProperties": schema(args[1]) if args else {}}
    if is_model(tp):
        return ref(tp)
    simple = {
        str: {"type": "string"},
        int: {"type": "integer"},
        float: {"type": "number"},
        bool: {"type": "boolean"},
        datetime.datetime: {"type": "string", "format": "date-time"},
        datetime.date: {"type": "string", "format": "date"},
    }
    if tp in simple:
        return simple[tp]
    return {}  # object, Any, builtins.object: anything


def model(cls):
    hints = typing_extensions.get_type_hints(cls, include_extras=True)
    props, required = {}, []
    for name, field in cls.__fields__.items():
        alias = field.alias or name
        props[alias] = schema(hints.get(name, typing.Any))
        if field.required:
            required.append(alias)
    out = {"type": "object", "properties": props}
    if required:
        out["required"] = sorted(required)
    return out


def operations():
    """Each "METHOD /path" of api.md with the type its method returns."""
    text = open(SDK + "/api.md").read()
    line = re.compile(r'title="(\w+) ([^"]+)">client\.[\w.]*<a href="[^"]*">\w+</a>\([^()]*\)(?: -> <a href="\./src/slash_sdk/types/([\w/]+)\.py">(\w+)</a>)?')
    for m in line.finditer(text):
        method, path, module, name = m.groups()
        yield method.upper() + " " + path, module, name


ops = {}
for op, module, name in operations():
    if not module:
        continue  # binary or empty responses
    tp = getattr(importlib.import_module("slash_sdk.types." + module.replace("/", ".")), name)
    ops[op] = schema(tp)

commit = subprocess.run(["git", "-C", SDK, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
json.dump({"source": "slash-sdk-python " + commit, "operations": ops, "components": {"schemas": schemas}},
          sys.stdout, indent=1, sort_keys=True)
print()
