-- PostgreSQL catalogs as psql reads them: \l \dn \dt \d \di \dv \df, on a
-- database and on one of its branches. DuckDB's schema main is public;
-- every object is owned by the role vsql.
CREATE DATABASE shopfront;
\c shopfront
CREATE TABLE orders (
    id       INTEGER PRIMARY KEY,
    customer VARCHAR NOT NULL,
    amount   DECIMAL(10, 2) DEFAULT 0,
    placed   TIMESTAMPTZ
);
CREATE INDEX orders_customer ON orders (customer);
CREATE TABLE lines (
    order_id INTEGER REFERENCES orders (id),
    sku      VARCHAR UNIQUE,
    qty      INTEGER CHECK (qty > 0)
);
CREATE VIEW big_orders AS SELECT id, customer, amount FROM orders WHERE amount > 100;
\l shopfront
\dn
\dt
\d orders
\d orders_pkey
\d lines
\di
\dv
\d big_orders
\df
\d
-- names clients write: public.x, "public"."x", three-part names
INSERT INTO public.orders (id, customer) VALUES (1, 'Ada');
SELECT count(*) AS n FROM "public"."orders";
SELECT count(*) AS n FROM "shopfront".public.orders;
CREATE SCHEMA IF NOT EXISTS public;
SELECT current_schema(), current_schemas(true), current_schemas(false);
SELECT 'orders'::regclass, 'public.orders'::regclass = (SELECT oid FROM pg_class WHERE relname = 'orders') AS same;
-- a branch sees its own tables, the database's main branch does not
SELECT snapshot_id > 0 AS snapshotted FROM vsql_create_snapshot();
SELECT branch_name FROM vsql_create_branch('shopfront', 'returns');
\c shopfront/returns
CREATE TABLE refunds (order_id INTEGER PRIMARY KEY, reason VARCHAR);
\dt
SELECT current_database() AS current_database;
\c shopfront
\dt
\c regress_catalog
\dt
DROP DATABASE shopfront;
