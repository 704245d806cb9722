"""The names the library's schema lives under: its PostgreSQL schema and the role that
holds the members' privileges."""

SCHEMA = "vaultd_lab"
MEMBER_ROLE = "vaultd_member"
