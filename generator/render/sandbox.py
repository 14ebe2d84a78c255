"""The Jinja sandbox for everything a spec brings (its macros, its `{{ }}` expressions), with bounds
on what such code may cost, so that a hostile spec or macro folder fails with an error instead of
running forever or taking the machine's memory.

Jinja's own sandbox guards against reaching Python internals only. Here, in addition:
- numbers: `**` and `*` refuse results over MAX_INT_BITS bits; `%`, `str.format` and the
  `format` filter refuse field widths over MAX_SIZE;
- strings and lists: `*`, `+`, `~`, joins, replacements and every call's result are at most
  MAX_SIZE long, and no call takes a number over MAX_SIZE (a width, a count);
- loops: every `{% for %}` counts its iterations against the build's Budget, and its body's
  fixed text against the output bound; `{{ }}` output and call results count there too;
- time: the Budget's deadline is checked in every operator, call, loop step and output.
The bounded operators are intercepted, which also keeps Jinja from folding them at compile time
(`{{ 9**999999999 }}` would otherwise be computed while the template is compiled), and the
filters take the context so that none of them is run at compile time either.

A Budget is per build (generator.rules.expand opens one around a spec's rules); outside one only the
size bounds apply."""
from __future__ import annotations

import dataclasses
import hashlib
import inspect
import operator
import os
import re
import time
from contextlib import contextmanager
from pathlib import Path

from jinja2 import nodes
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from jinja2.utils import _PassArg, pass_context

from generator.model import game as model

MAX_SIZE = 1_000_000  # characters of a string, items of a list, any size argument
MAX_INT_BITS = 1 << 16  # about 20,000 digits
MAX_ITERATIONS = 1_000_000  # loop steps in one build
MAX_OUTPUT = 50_000_000  # characters rendered (output, call results, joined text) in one build
MAX_SECONDS = 10.0  # processor time of templates in one build (a hostile case ends well within 20 s)

MODEL_TYPES = frozenset(cls for _, cls in inspect.getmembers(model, inspect.isclass)
                        if dataclasses.is_dataclass(cls) and cls.__module__ == model.__name__)
_WIDTH = re.compile(r"\d+")
TEXT_CHECK = "_checked_text"  # the filter every `~` result goes through


# Compiled templates hold this module's rewriting of them: cached ones are kept apart by this stamp.
CODE_STAMP = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]


class SandboxLimit(Exception):
    """Template code went over one of the bounds; the message says which."""


@dataclasses.dataclass
class Budget:
    seconds: float
    deadline: float  # on the monotonic clock: cheap to read; past it, the processor time decides
    cpu_start: float = dataclasses.field(default_factory=time.process_time)
    iterations: int = MAX_ITERATIONS
    output: int = MAX_OUTPUT


_budget: Budget | None = None


def current_budget() -> Budget | None:
    """The budget of the build running now (None outside build_budget)."""
    return _budget


@contextmanager
def build_budget(seconds: float | None = None):
    """The bounds of one build; nested uses (a mod's YAML base) share the outer one."""
    global _budget
    if _budget is not None:
        yield _budget
        return
    seconds = MAX_SECONDS if seconds is None else seconds
    _budget = Budget(seconds, time.monotonic() + seconds)
    try:
        yield _budget
    finally:
        _budget = None


def _tick() -> None:
    if _budget is not None and time.monotonic() > _budget.deadline:
        used = time.process_time() - _budget.cpu_start
        if used > _budget.seconds:
            raise SandboxLimit(f"templates ran for more than {_budget.seconds:g} seconds in this build")
        # A busy machine (other processes on the cores) is not the templates' doing: only the
        # processor time this build used counts, so a loaded CI machine does not fail a big mod.
        _budget.deadline = time.monotonic() + (_budget.seconds - used)


def _charge_output(size: int) -> None:
    """One value of size characters (or items) made: over MAX_SIZE it is refused; it counts to the output."""
    if size > MAX_SIZE:
        raise SandboxLimit(f"a value of {size} characters or items is over the limit of {MAX_SIZE}")
    _spend(size)


def _spend(size: int) -> None:
    if _budget is not None:
        _budget.output -= size
        if _budget.output < 0:
            raise SandboxLimit(f"templates produced more than {MAX_OUTPUT} characters in this build")


def size_of(value, limit: int = MAX_OUTPUT) -> int:
    """About how many characters value takes as text; stops counting past limit (cost bounded by it)."""
    if isinstance(value, (str, bytes)):
        return len(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value.bit_length() // 3 + 1
    if not isinstance(value, (list, tuple, set, frozenset, dict)):
        return 16
    total, pending = 0, [value]
    while pending and total <= limit:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
            total += 2 + 2 * len(item)
        elif isinstance(item, (list, tuple, set, frozenset)):
            pending.extend(item)
            total += 2 + 2 * len(item)
        else:
            total += size_of(item) if isinstance(item, (str, bytes, int)) else 16
    return total


def _check_number_arguments(args, kwargs) -> None:
    for value in (*args, *kwargs.values()) if kwargs else args:
        if type(value) is int and not -MAX_SIZE <= value <= MAX_SIZE:
            raise SandboxLimit(f"the number {_short(value)} is over the limit of {MAX_SIZE} for a size or count")
        if type(value) is dict:  # format_map's fields, a width among them
            _check_number_arguments(value.values(), {})


def _check_format(text) -> None:
    """A %-format or str.format string: no field width or precision over MAX_SIZE."""
    if isinstance(text, str) and any(len(digits) > 7 or int(digits) > MAX_SIZE for digits in _WIDTH.findall(text)):
        raise SandboxLimit(f"a format field wider than {MAX_SIZE} characters")


def _short(number: int) -> str:
    return str(number) if number.bit_length() < 64 else f"of {number.bit_length()} bits"


def _bounded_binop(operator_name: str, left, right):
    """Refuses, before computing it, a result over the size bounds."""
    if operator_name == "**" and isinstance(left, int) and isinstance(right, int) and right > 0:
        if max(left.bit_length(), 1) * right > MAX_INT_BITS and abs(left) > 1:
            raise SandboxLimit(f"a power with a result of more than {MAX_INT_BITS} bits")
    elif operator_name == "*":
        if isinstance(left, int) and isinstance(right, int):
            if left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise SandboxLimit(f"a product with a result of more than {MAX_INT_BITS} bits")
        elif isinstance(left, int) or isinstance(right, int):
            count, sequence = (left, right) if isinstance(left, int) else (right, left)
            if hasattr(sequence, "__len__") and count > 0 and len(sequence) * count > MAX_SIZE:
                raise SandboxLimit(f"a repetition of {len(sequence) * count} characters or items is over "
                                   f"the limit of {MAX_SIZE}")
    elif operator_name == "+":
        if hasattr(left, "__len__") and hasattr(right, "__len__"):
            _charge_output(len(left) + len(right))
    elif operator_name == "%" and isinstance(left, str):
        _check_format(left)
        if "*" in left:  # a width given as an argument
            _check_number_arguments(right if isinstance(right, tuple) else (right,), {})
    return None


_BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
           "//": operator.floordiv, "**": operator.pow, "%": operator.mod}


def _estimated_result(name: str, owner, args) -> int:
    """A size the string method (or filter) `name` would produce on owner, for those whose result
    can outgrow their arguments."""
    if name == "join" and args:
        return size_of(args[0]) + len(owner) * size_of(args[0], MAX_SIZE)
    if name == "replace" and len(args) >= 2 and isinstance(args[1], (str, bytes)):
        return len(owner) + owner.count(args[0]) * len(args[1]) if args[0] else len(owner) * (1 + len(args[1]))
    if name == "expandtabs":
        return len(owner) * (1 + (args[0] if args and isinstance(args[0], int) else 8))
    if name == "translate" and args and isinstance(args[0], dict):
        return len(owner) * max([size_of(v) for v in args[0].values()] or [1])
    return 0


def _bounded_filter(name: str, function):
    """A filter with the call bounds, taking the context so that Jinja never runs it at compile time."""
    passes = _PassArg.from_obj(function)

    @pass_context
    def bounded(context: Context, *args, **kwargs):
        _tick()
        _check_number_arguments(args[1:], kwargs)
        if name == "format" and args:
            _check_format(args[0])
        elif name in ("join", "sum") and args:
            separator = args[1] if len(args) > 1 and name == "join" else kwargs.get("d", "")
            _charge_output(size_of(args[0]) + size_of(separator) * size_of(args[0], MAX_SIZE))
        elif name == "replace" and args and isinstance(args[0], str):
            _charge_output(_estimated_result(name, args[0], args[1:]))
        elif name == "indent" and args and isinstance(args[0], str):
            width = args[1] if len(args) > 1 else kwargs.get("width", 4)
            _charge_output(len(args[0]) * (1 + (width if isinstance(width, int) else len(str(width)))))
        if passes is _PassArg.context:
            result = function(context, *args, **kwargs)
        elif passes is _PassArg.eval_context:
            result = function(context.eval_ctx, *args, **kwargs)
        elif passes is _PassArg.environment:
            result = function(context.environment, *args, **kwargs)
        else:
            result = function(*args, **kwargs)
        if isinstance(result, (str, list, tuple)):
            _charge_output(len(result))
        return result

    return bounded


def _fixed_text(body: list) -> int:
    """Characters of template text directly in a loop body (not in loops inside it, which count their own)."""
    total = 0
    for node in body:
        if isinstance(node, nodes.TemplateData):
            total += len(node.data)
        elif not isinstance(node, (nodes.For, nodes.Macro, nodes.CallBlock)):
            total += _fixed_text(list(node.iter_child_nodes()))
    return total


def _call(name: str, *args: nodes.Expr) -> nodes.Call:
    return nodes.Call(nodes.EnvironmentAttribute(name), list(args), [], None, None)


def _bound_tree(tree: nodes.Template) -> None:
    """Every loop counted, every include's text and every `~` result charged."""
    for loop in list(tree.find_all(nodes.For)):
        if not isinstance(loop.iter, nodes.Expr):  # jinja's parser puts an expression there (typed as any Node)
            raise TypeError(f"a for loop over {type(loop.iter).__name__}, not an expression: cannot bound it")
        loop.iter = _call("bounded_loop", loop.iter, nodes.Const(_fixed_text(loop.body)))
        loop.iter.set_lineno(loop.lineno)
    for include in list(tree.find_all(nodes.Include)):  # an include in a loop repeats the template's text
        include.template = _call("bounded_include", include.template)
        include.template.set_lineno(include.lineno)
    for node in [tree, *tree.find_all(nodes.Node)]:  # every `~` result checked and charged, by a filter (cheap)
        for name in node.fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                setattr(node, name, [_checked_text(item) if isinstance(item, nodes.Concat) else item for item in value])
            elif isinstance(value, nodes.Concat):
                setattr(node, name, _checked_text(value))


def _checked_text(concat: nodes.Concat) -> nodes.Filter:
    # Its operands are values already bounded, and a template holds few of them: checking the result suffices.
    checked = nodes.Filter(concat, TEXT_CHECK, [], [], None, None)
    checked.set_lineno(concat.lineno)  # in place (it returns the node typed as any Node)
    return checked


@pass_context
def _check_text(context, text):
    _charge_output(len(text))
    return text


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox with the bounds above, and a fast path for the game model: its
    classes hold data fields only, so reading a public field needs none of the per-access safety
    checks (a big game reads tens of thousands of them)."""

    intercepted_binops = frozenset(("**", "*", "+", "%"))  # the others cannot outgrow their operands

    def __init__(self, *args, **kwargs):
        super().__init__(*args, finalize=_counted_output, **kwargs)
        self.globals.pop("lipsum", None)  # paragraphs of filler: no use to a macro, costly to bound
        self.filters = {name: _bounded_filter(name, function) for name, function in self.filters.items()}
        self.filters[TEXT_CHECK] = _check_text

    def _parse(self, source, name, filename):
        tree = super()._parse(source, name, filename)
        _bound_tree(tree)
        tree.set_environment(self)
        return tree

    def getattr(self, obj, attribute):
        if type(obj) in MODEL_TYPES and not attribute.startswith("_"):
            try:
                return getattr(obj, attribute)
            except AttributeError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)

    def call_binop(self, context, operator_name, left, right):
        _tick()
        _bounded_binop(operator_name, left, right)
        return _BINOPS[operator_name](left, right)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja's own signature)
        # The hot path of a macro (tens of thousands of calls in a big mod): checks inlined.
        budget = _budget
        if budget is not None and time.monotonic() > budget.deadline:
            _tick()
        if args or kwargs:
            _check_number_arguments(args, kwargs)
            owner = getattr(__obj, "__self__", None)
            if isinstance(owner, (str, bytes)):
                _charge_output(_estimated_result(__obj.__name__, owner, args))
        if not __self.is_safe_callable(__obj):
            raise SecurityError(f"{__obj!r} is not safely callable")
        result = __context.call(__obj, *args, **kwargs)
        if isinstance(result, (str, bytes, list, tuple)):
            size = len(result)
            if budget is None or size > MAX_SIZE:
                _charge_output(size)
            else:
                budget.output -= size
                if budget.output < 0:
                    _spend(0)
        return result

    def wrap_str_format(self, value):
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            _check_format(value.__self__)
        return wrapped

    @staticmethod
    def bounded_loop(iterable, fixed_text: int):
        budget = _budget
        for item in iterable:
            if budget is not None:
                budget.iterations -= 1
                if budget.iterations < 0:
                    raise SandboxLimit(f"loops ran more than {MAX_ITERATIONS} times in this build")
                _spend(fixed_text)
                if time.monotonic() > budget.deadline:
                    _tick()
            yield item

    def bounded_include(self, name):
        """The template an include names (loaded here, so that its size is known), its text charged."""
        template = self.select_template(name) if isinstance(name, (list, tuple)) else self.get_template(name)
        if template.filename:
            _spend(os.path.getsize(template.filename))
        return template



@pass_context
def _counted_output(context, value):
    """Every `{{ }}` output (as finalize: Jinja calls it for each one, never at compile time)."""
    budget = _budget
    if budget is not None and isinstance(value, str) and len(value) <= MAX_SIZE:
        budget.output -= len(value)  # the common case, inline: a macro outputs thousands of names
        if budget.output >= 0:
            return value
    _charge_output(size_of(value))
    return value
