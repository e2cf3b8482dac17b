# syntax=docker/dockerfile:1
# The table server (`warboard serve`) in a container; docs/deploy.md. Configured by WARBOARD_*
# environment variables only (the defaults below; `warboard serve --help` lists every setting).
#
#   docker build -t warboard .
#   docker run -p 8218:8218 -v warboard-data:/data warboard
#
# tests/test_deploy.py reads this file: the ENV values, the entry command and the HEALTHCHECK
# are run there as a real local process.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# ---- builder: the wheel with the C fast path (warboard.hill218._fastplay), and its dependencies
FROM ${PYTHON_IMAGE} AS builder
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE MANIFEST.in ./
COPY src ./src
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".[postgres,redis]" \
 && ls /wheels/warboard-*-cp3*-linux_*.whl  # a platform wheel: the C extension was built

# ---- runtime: no compiler, no build tools, a user of its own
FROM ${PYTHON_IMAGE}
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links /wheels "warboard[postgres,redis]" \
 && python -c "from warboard.hill218 import fast; assert fast.available(), 'no C fast path'" \
 && groupadd --system --gid 10218 warboard \
 && useradd --system --uid 10218 --gid 10218 --home-dir /data --no-create-home \
            --shell /usr/sbin/nologin warboard \
 && mkdir /data && chown warboard:warboard /data

# every interface of the container, the default port, games in the volume; the computer thinks
# in WARBOARD_AI_WORKERS processes (unset: the cores less one); JSON log lines for a collector
ENV WARBOARD_HOST=0.0.0.0 \
    WARBOARD_PORT=8218 \
    WARBOARD_DATABASE_URL=sqlite:////data/warboard.db \
    WARBOARD_LOG_FORMAT=json
VOLUME /data
WORKDIR /data
USER 10218:10218
EXPOSE 8218

# Python's urllib (the slim image has no curl): exit 0 when /api/health answers 200, else 1
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('WARBOARD_PORT', '8218'); sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/api/health', timeout=4).status == 200 else 1)"]

ENTRYPOINT ["warboard"]
CMD ["serve"]
