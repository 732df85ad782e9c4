"""Rows straight into a table, for writes of a size the ORM's objects would make slow (a restore's games and the
benchmark's seeded seasons), or made so often that building each statement anew would cost more than the write
itself (a save at a table: ``row_inserted``, ``row_updated``). Each value is prepared by its field as the ORM would
prepare it (uuids, JSON, moments), and rows in bulk can be prepared before the transaction that writes them begins
(so that the write lock is held only to write); no signal is sent."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

BATCH = 5000
M = TypeVar("M", bound=models.Model)


@dataclass(frozen=True)
class Rows:
    """Rows ready to be written: the statement and each row's values as the database takes them."""

    sql: str
    values: list[Sequence[Any]]


def rows_insert(
    model: type[models.Model], names: Sequence[str], rows: Iterable[Sequence[Any]], *, repeated: bool = False
) -> None:
    """Insert ``rows`` (values in the order of the fields ``names``) into ``model``'s table."""
    rows_written(rows_prepared(model, names, rows, repeated=repeated))


def rows_prepared(
    model: type[models.Model], names: Sequence[str], rows: Iterable[Sequence[Any]], *, repeated: bool = False
) -> Rows:
    """``rows`` (values in the order of the fields ``names``) made ready for ``model``'s table, before any lock is
    taken to write them. With ``repeated``, a JSON value or a moment is prepared once for all rows that hold an equal
    one (worth it where few distinct values repeat)."""
    fields = [model._meta.get_field(name) for name in names]
    assert all(isinstance(field, models.Field) for field in fields)
    database = connections[DEFAULT_DB_ALIAS]
    preparers = [_preparer(field, database, repeated) for field in fields]
    quote = database.ops.quote_name
    columns = ", ".join(quote(str(field.column)) for field in fields)  # type: ignore[union-attr]
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
    # Only the columns that need it are prepared: most of a row (numbers, flags) goes as it is.
    prepared = [(index, prepare) for index, prepare in enumerate(preparers) if prepare is not None]
    values: list[Sequence[Any]] = []
    for row in rows:
        if len(row) != len(fields):
            raise ValueError(f"{len(row)} values for {len(fields)} columns")
        if prepared:
            row = list(row)
            for index, prepare in prepared:
                row[index] = prepare(row[index])
        values.append(row)
    return Rows(sql, values)


def rows_written(rows: Rows) -> None:
    """Write rows made ready by ``rows_prepared``, in batches."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        for start in range(0, len(rows.values), BATCH):
            cursor.executemany(rows.sql, rows.values[start : start + BATCH])


def row_inserted(instance: models.Model) -> None:
    """Insert ``instance`` as ``save(force_insert=True)`` would (every field's default, ``auto_now`` and preparation
    by the field) and set its primary key, in one statement written once per model rather than built for each row."""
    database = connections[DEFAULT_DB_ALIAS]
    sql, fields = _insert_statement(type(instance), database.vendor)
    values = [field.get_db_prep_save(field.pre_save(instance, True), database) for field in fields]
    with database.cursor() as cursor:
        cursor.execute(sql, values)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False
    instance._state.db = DEFAULT_DB_ALIAS


def row_updated(instance: models.Model, names: Sequence[str]) -> None:
    """Write the fields ``names`` of ``instance`` as ``save(update_fields=names)`` would (``auto_now`` included)."""
    database = connections[DEFAULT_DB_ALIAS]
    sql, fields = _update_statement(type(instance), tuple(names), database.vendor)
    values = [field.get_db_prep_save(field.pre_save(instance, False), database) for field in fields]
    with database.cursor() as cursor:
        cursor.execute(sql, [*values, instance.pk])


@cache
def _insert_statement(model: type[models.Model], vendor: str) -> tuple[str, tuple[models.Field[Any, Any], ...]]:
    meta = model._meta
    fields = tuple(field for field in meta.concrete_fields if field is not meta.pk)
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    places = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({places}) RETURNING {quote(meta.pk.column)}"
    return sql, fields


@cache
def _update_statement(
    model: type[models.Model], names: tuple[str, ...], vendor: str
) -> tuple[str, tuple[models.Field[Any, Any], ...]]:
    meta = model._meta
    fields: list[models.Field[Any, Any]] = []
    for name in names:
        field = meta.get_field(name)
        assert isinstance(field, models.Field)
        fields.append(field)
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    assignments = ", ".join(f"{quote(str(field.column))} = %s" for field in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    return sql, tuple(fields)


def rows_read(
    model: type[M], name: str, value: Any, *, joined: str | None = None, ordered_by: str | None = None
) -> list[M]:
    """The instances of ``model`` whose field ``name`` equals ``value`` (in the order of the field ``ordered_by``),
    as ``model.objects.filter(name=value).select_related(joined)`` would give them: every column converted as the
    ORM converts it, and the one relation ``joined`` (a foreign key, or a one-to-one from either side) read in the
    same statement. The statement is written once per model and process: the reads every request makes (its
    session's account, a match's seats) are not built anew each time."""
    database = connections[DEFAULT_DB_ALIAS]
    reading = _reading(model, name, joined, ordered_by, database.vendor)
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    with database.cursor() as cursor:
        cursor.execute(reading.sql, [field.get_db_prep_value(value, database)])
        rows = cursor.fetchall()
    return [reading.instance(row, database) for row in rows]


@dataclass(frozen=True)
class _Columns:
    """A model's columns in a statement: its fields, and the ORM's conversions of each column's value."""

    model: type[models.Model]
    names: list[str]
    conversions: list[tuple[Any, list[Callable[..., Any]]]]

    def instance(self, values: Sequence[Any], database: BaseDatabaseWrapper) -> models.Model | None:
        if values[0] is None:
            return None  # the joined row is missing
        converted = list(values)
        for index, (column, converters) in enumerate(self.conversions):
            for convert in converters:
                converted[index] = convert(converted[index], column, database)
        return self.model.from_db(DEFAULT_DB_ALIAS, self.names, converted)


def _columns(model: type[models.Model]) -> _Columns:
    database = connections[DEFAULT_DB_ALIAS]
    fields = model._meta.concrete_fields
    conversions = []
    for field in fields:
        column = field.get_col(model._meta.db_table)
        converters = database.ops.get_db_converters(column) + field.get_db_converters(database)  # type: ignore[attr-defined]
        conversions.append((column, converters))
    return _Columns(model, [field.attname for field in fields], conversions)


@dataclass(frozen=True)
class _Reading:
    sql: str
    own: _Columns
    related: _Columns | None
    relation: Any

    def instance(self, row: Sequence[Any], database: BaseDatabaseWrapper) -> Any:
        width = len(self.own.names)
        instance = self.own.instance(row[:width], database)
        if self.related is not None:
            related = self.related.instance(row[width:], database)
            self.relation.set_cached_value(instance, related)
            remote = self.relation.remote_field
            if related is not None and remote.one_to_one:
                # A one-to-one answers from the other side too, as select_related makes it.
                remote.set_cached_value(related, instance)
        return instance


@cache
def _reading(model: type[models.Model], name: str, joined: str | None, ordered_by: str | None, vendor: str) -> _Reading:
    meta = model._meta
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    own = _columns(model)
    columns = [f"t.{quote(field.column)}" for field in meta.concrete_fields]
    join = ""
    related: _Columns | None = None
    relation: Any = None
    if joined is not None:
        relation = meta.get_field(joined)
        other = relation.related_model
        related = _columns(other)
        columns += [f"r.{quote(field.column)}" for field in other._meta.concrete_fields]
        if relation.concrete:  # a foreign key or a one-to-one of this model's own
            on = f"r.{quote(other._meta.pk.column)} = t.{quote(relation.column)}"
        else:  # a one-to-one of the other model's, pointing here
            on = f"r.{quote(relation.field.column)} = t.{quote(meta.pk.column)}"
        join = f" LEFT JOIN {quote(other._meta.db_table)} r ON {on}"
    where = f"t.{quote(str(meta.get_field(name).column))} = %s"  # type: ignore[union-attr]
    order = f" ORDER BY t.{quote(str(meta.get_field(ordered_by).column))}" if ordered_by else ""  # type: ignore[union-attr]
    sql = f"SELECT {', '.join(columns)} FROM {quote(meta.db_table)} t{join} WHERE {where}{order}"
    return _Reading(sql, own, related, relation)


def _preparer(field: Any, database: BaseDatabaseWrapper, repeated: bool) -> Callable[[Any], Any] | None:
    """How a field's plain values are prepared: as they are (None), or as the field's own preparation ends, by the
    database's adapter (each on its own, or with ``repeated`` once per distinct value)."""
    each: Callable[[Any], Any]
    if isinstance(field, models.JSONField):
        encoder = field.encoder

        def each(value: Any) -> Any:
            return None if value is None else database.ops.adapt_json_value(value, encoder)

    elif isinstance(field, models.DateTimeField):
        each = database.ops.adapt_datetimefield_value
    elif isinstance(field, models.UUIDField):
        native = database.features.has_native_uuid_field
        return lambda value: value if native or value is None else value.hex
    else:
        return None
    if not repeated:
        return each
    known: dict[str, Any] = {}

    def once(value: Any) -> Any:
        key = repr(value)
        if key not in known:
            known[key] = each(value)
        return known[key]

    return once
