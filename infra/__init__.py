"""Infrastructure shared by every app and the HTTP toolkit; knows no domain and no HTTP."""
