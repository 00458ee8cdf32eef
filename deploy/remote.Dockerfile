# One Grove remote as a static nginx service (docker-compose.yml builds it once per remote with
# --build-arg REMOTE=marketing|dashboard|integrations|referral).
FROM node:20-bookworm-slim AS build
ARG REMOTE
WORKDIR /grove
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN test -n "$REMOTE" && npx nx run "$REMOTE:build" --outputStyle=static

FROM nginx:1.27-alpine
ARG REMOTE
COPY deploy/nginx/remote.conf /etc/nginx/conf.d/default.conf
COPY deploy/nginx/remote-headers.conf /etc/nginx/snippets/remote-headers.conf
COPY --from=build /grove/dist/apps/${REMOTE} /usr/share/nginx/html/remotes/${REMOTE}
EXPOSE 8080
