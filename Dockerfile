# Shelfmark server image (used by docker-compose.yml).
FROM node:20-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends libssl-dev libkrb5-dev python3 build-essential git \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY . .
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
EXPOSE 3000
CMD ["node", "--import", "tsx", "src/main.ts"]
