from django.db import models


class Customer(models.Model):
    name = models.CharField(max_length=100)
    email = models.CharField(max_length=200, unique=True)
    joined = models.DateField(null=True)

    class Meta:
        app_label = "djangoapp"


class Invoice(models.Model):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE, related_name="invoices")
    total = models.DecimalField(max_digits=10, decimal_places=2)
    paid = models.BooleanField(default=False)
    extra = models.JSONField(null=True)

    class Meta:
        app_label = "djangoapp"
