"""The service's URLs plus /bench/constant: the same stack answering a constant JSON body."""

from django.http import JsonResponse
from django.urls import path

from config.urls import urlpatterns as service_urlpatterns

CONSTANT = {"status": True, "data": {"constant": True}}


def constant(request):
    return JsonResponse(CONSTANT)


urlpatterns = [path("bench/constant", constant), *service_urlpatterns]
