# syntax=docker/dockerfile:1
# Vigil as one static binary on a distroless base: no shell, CA certificates
# for outbound TLS, running as an unprivileged user.
#
#   docker build --build-arg VERSION=$(git describe --tags --always) \
#                --build-arg COMMIT=$(git rev-parse --short HEAD) -t vigil .
ARG GO_VERSION=1.26.8

FROM golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
ENV GOTOOLCHAIN=local CGO_ENABLED=0 GOOS=linux
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
# VERSION and COMMIT go in through -ldflags; left empty, the binary reports
# what Go's build information holds.
ARG VERSION=""
ARG COMMIT=""
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X github.com/vigil-soc/vigil/app.Version=${VERSION} -X github.com/vigil-soc/vigil/app.Commit=${COMMIT}" \
      -o /out/vigil ./cmd/vigil

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/vigil /usr/local/bin/vigil
# A SQLite database, if one is used, goes under the user's home.
WORKDIR /home/nonroot
USER 65532:65532
ENV VIGIL_HTTP_ADDR=0.0.0.0:8080 \
    VIGIL_WORKER_HTTP_ADDR=0.0.0.0:9091 \
    VIGIL_LOG_FORMAT=json
EXPOSE 8080 9091
ENTRYPOINT ["/usr/local/bin/vigil"]
CMD ["serve"]
