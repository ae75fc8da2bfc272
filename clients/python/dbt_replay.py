"""A replay of dbt-postgres's SQL (dbt cannot be installed here): connection
options, comment-prefixed statements, schema creation, relation listing,
column introspection, table materialization with a rename swap, a view
renamed with ALTER TABLE, an incremental run through a temporary table,
and dollar quoting — all through psycopg2 on a db/branch target."""
import os

import psycopg2

db = os.environ["VSQL_DB"] + "/dev"
conn = psycopg2.connect(dbname=db, options="-c search_path=public")
conn.autocommit = False
cur = conn.cursor()
q = '"' + db + '"'  # dbt quotes the database in three-part names


def run(sql, node="model.shop.orders"):
    cur.execute('/* {"app": "dbt", "dbt_version": "1.7.0", "node_id": "%s"} */\n%s' % (node, sql))


run("select current_setting('search_path'), current_schema()")
print("search_path:", cur.fetchone())
run(f'create schema if not exists {q}."public"')
conn.commit()


def list_relations():
    run(f"""select '{db}' as database, tablename as name, schemaname as schema, 'table' as type
              from pg_tables where schemaname ilike 'public'
            union all
            select '{db}' as database, viewname as name, schemaname as schema, 'view' as type
              from pg_views where schemaname ilike 'public'
            union all
            select '{db}' as database, matviewname as name, schemaname as schema, 'materialized_view' as type
              from pg_matviews where schemaname ilike 'public'""")
    return sorted((r[1], r[3]) for r in cur.fetchall())


print("relations:", list_relations())
# a table model: create as __dbt_tmp, swap names, drop the backup
for run_no in (1, 2):
    run(f'create table {q}."public"."orders__dbt_tmp" as (select id, label, $$it\'s {run_no}$$ as note from {q}."public"."seed")')
    run(f"select count(*) from pg_tables where schemaname = 'public' and tablename = 'orders'")
    if cur.fetchone()[0]:
        run(f'alter table {q}."public"."orders" rename to "orders__dbt_backup"')
    run(f'alter table {q}."public"."orders__dbt_tmp" rename to "orders"')
    conn.commit()
    run(f'drop table if exists {q}."public"."orders__dbt_backup" cascade')
    conn.commit()
run(f'select id, label, note from {q}."public"."orders" order by id')
print("orders:", cur.fetchall())
# columns, as get_columns_in_relation reads them
run(f"""select column_name, data_type, character_maximum_length, numeric_precision, numeric_scale
          from {q}.information_schema.columns
         where table_name = 'orders' and table_schema = 'public' order by ordinal_position""")
print("columns:", cur.fetchall())
# a view model, renamed with ALTER TABLE as dbt does
run(f'create view {q}."public"."order_labels__dbt_tmp" as (select label from {q}."public"."orders")', "model.shop.order_labels")
run(f'alter table {q}."public"."order_labels__dbt_tmp" rename to "order_labels"', "model.shop.order_labels")
conn.commit()
run(f'select * from {q}."public"."order_labels"', "model.shop.order_labels")
print("view:", cur.fetchall())
# an incremental model: new rows through a temporary table
run('create temporary table "orders__dbt_tmp103" as (select 2 as id, $tag$added$tag$ as label, \'inc\' as note)')
run("""select column_name, data_type from information_schema.columns
        where table_name = 'orders__dbt_tmp103' order by ordinal_position""")
print("temp columns:", cur.fetchall())
run(f'insert into {q}."public"."orders" ("id", "label", "note") (select "id", "label", "note" from "orders__dbt_tmp103")')
conn.commit()
run(f'select count(*) from {q}."public"."orders"')
print("rows after incremental:", cur.fetchone()[0])
print("relations:", list_relations())
conn.close()
