"""Django 3.2 with its defaults: migrate (run_syncdb), ORM round trip and aggregation, a JSONField (stored, read back, key lookups, __contains, __has_key), introspection, iterator() (a server-side cursor)."""
import datetime
import decimal
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import django
from django.conf import settings

settings.configure(
    DATABASES={"default": {"ENGINE": "django.db.backends.postgresql", "NAME": os.environ["VSQL_DB"] + "/dev",
                           "USER": os.environ["PGUSER"], "HOST": os.environ["PGHOST"], "PORT": os.environ["PGPORT"]}},
    INSTALLED_APPS=["djangoapp"], USE_TZ=True, TIME_ZONE="UTC", DEFAULT_AUTO_FIELD="django.db.models.AutoField",
)
django.setup()
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models import Count, Sum

from djangoapp.models import Customer, Invoice

call_command("migrate", run_syncdb=True, verbosity=0)
with connection.cursor() as cur:
    print("tables:", sorted(t.name for t in connection.introspection.get_table_list(cur)))
    for col in connection.introspection.get_table_description(cur, "djangoapp_invoice"):
        print("column:", col.name, col.type_code, col.null_ok)
    for name, c in sorted(connection.introspection.get_constraints(cur, "djangoapp_invoice").items()):
        print("constraint:", name, c["columns"], "primary" if c["primary_key"] else "", "unique" if c["unique"] else "", "index" if c["index"] else "", c.get("type") or "", c.get("orders") or "")
ada = Customer.objects.create(name="Ada", email="ada@example.com", joined=datetime.date(2026, 1, 5))
lin = Customer.objects.create(name="Lin", email="lin@example.com")
with transaction.atomic():
    Invoice.objects.create(customer=ada, total=decimal.Decimal("10.50"), paid=True, extra={"po": "A-7", "lines": [{"sku": "x", "qty": 2}], "rush": True})
    Invoice.objects.create(customer=ada, total=decimal.Decimal("4.25"))
    Invoice.objects.create(customer=lin, total=decimal.Decimal("7.00"), extra={"po": "B-1", "rush": False})
try:
    with transaction.atomic():
        Invoice.objects.create(customer=lin, total=decimal.Decimal("99.00"))
        raise RuntimeError("undo")
except RuntimeError:
    pass
for c in Customer.objects.annotate(n=Count("invoices"), s=Sum("invoices__total")).order_by("name"):
    print("customer:", c.id, c.name, c.email, c.joined, c.n, c.s)
print("unpaid:", list(Invoice.objects.filter(paid=False).order_by("total").values_list("total", flat=True)))
print("iterator:", [str(i.total) for i in Invoice.objects.order_by("id").iterator(chunk_size=2)])
print("extras:", [(i.total, i.extra) for i in Invoice.objects.order_by("id")])
print("rush:", list(Invoice.objects.filter(extra__rush=True).values_list("extra__po", flat=True)))
print("contains:", list(Invoice.objects.filter(extra__contains={"po": "B-1"}).values_list("total", flat=True)))
print("has lines:", list(Invoice.objects.filter(extra__has_key="lines").values_list("extra__lines__0__sku", flat=True)))
print("no extra:", Invoice.objects.filter(extra__isnull=True).count())
Invoice.objects.filter(customer=lin).update(paid=True)
print("paid now:", Invoice.objects.filter(paid=True).count())
