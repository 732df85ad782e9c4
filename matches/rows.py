"""Rows straight into a table, for writes of a size the ORM's objects would make slow (a restore's games and the
benchmark's seeded seasons), or made so often that building each statement anew would cost more than the write
itself (a save at a table: ``row_inserted``, ``row_updated``). Each value is prepared by its field as the ORM would
prepare it (uuids, JSON, moments), and rows in bulk can be prepared before the transaction that writes them begins
(so that the write lock is held only to write); no signal is sent."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

BATCH = 5000


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
