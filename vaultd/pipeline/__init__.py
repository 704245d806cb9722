"""Pipeline stages: capture → compile → enrich → index; every interface calls these."""
