# The gopoly image for experiment manifest --k8s: a static binary on a
# base with nothing else (no shell, no package manager), run as a user
# without privileges. Build from the repository's root:
#
#   docker build -t REGISTRY/gopoly:TAG .
#
# The pods of the manifest run "gopoly experiment ..." and need nothing
# but the binary: the spec comes from a ConfigMap and the games go to the
# claim mounted at /data, which must let uid 65532 write (fsGroup, or a
# volume made so).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO off: a static binary for a base without a C library; -trimpath so
# that the image does not depend on where it was built.
RUN CGO_ENABLED=0 go build -trimpath -o /out/gopoly ./cmd/gopoly

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/gopoly /usr/local/bin/gopoly
USER nonroot:nonroot
WORKDIR /data
ENTRYPOINT ["/usr/local/bin/gopoly"]
