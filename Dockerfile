# Production-like image: builds every app, then runs the API, which also serves the shell and the
# remotes. docker-compose.yml pairs it with postgres:17.
FROM node:20-bookworm-slim AS build
WORKDIR /grove
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx nx run-many -t build --projects=api,shell,marketing,dashboard,integrations,referral --outputStyle=static

FROM node:20-bookworm-slim
WORKDIR /grove
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund
COPY --from=build /grove/dist ./dist
EXPOSE 3000
CMD ["node", "dist/apps/api/main.js"]
