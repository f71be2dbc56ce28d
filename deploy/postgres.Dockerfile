# PostgreSQL 15 with pgvector built from the vendored source release (../shared/vendor, the same
# tarball scripts/ensure-system.mjs builds; compose.yaml passes that folder as the `vendor`
# build context). OPTFLAGS="" so the build runs on any x86-64, as decision 0064 explains.
FROM postgres:15-bookworm
COPY --from=vendor pgvector-0.8.6.tar.gz /tmp/pgvector.tar.gz
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential postgresql-server-dev-15 \
 && mkdir /tmp/pgvector && tar -xzf /tmp/pgvector.tar.gz -C /tmp/pgvector --strip-components=1 \
 && make -C /tmp/pgvector OPTFLAGS="" && make -C /tmp/pgvector install \
 && apt-get purge -y build-essential postgresql-server-dev-15 && apt-get autoremove -y \
 && rm -rf /tmp/pgvector /tmp/pgvector.tar.gz /var/lib/apt/lists/*
COPY init-lexdesk.sh /docker-entrypoint-initdb.d/
