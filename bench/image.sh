#!/usr/bin/env bash
# Proves the Dockerfile builds and the image runs, using Debian's buildah
# (no Docker engine, no registry pulls).
#
#   bash bench/image.sh            # from the repo root (or anywhere)
#
# Steps:
#   1. install buildah via apt-get if missing;
#   2. make a local stand-in for golang:1.26-bookworm from this machine's Go
#      toolchain + CA bundle (reused on later runs while the Go version matches;
#      REBUILD_STANDIN=1 forces a rebuild);
#   3. buildah bud the unchanged Dockerfile -> slash-sandbox:dev (Docker
#      format: the OCI format has no HEALTHCHECK);
#   4. run the image's entrypoint on a free loopback port, its state in
#      /data/sandbox.db, and poll /_sandbox/health; run the image's
#      HEALTHCHECK command against it (it must exit 0), and again once the
#      server has stopped (it must fail);
#   5. check the image config (user, port, entrypoint, env, healthcheck) and
#      size.
# Prints PASS/FAIL lines; exits non-zero on any failure. Talks to loopback only
# (the Go build inside the image fetches modules through GOPROXY, like `go` on
# the host does).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IMAGE=${IMAGE:-slash-sandbox:dev}
BUILDER=docker.io/library/golang:1.26-bookworm # what `FROM golang:1.26-bookworm` resolves to
# The size guard: an image past it most likely links something a release
# does not need (a test-only package, a second copy of a library). The
# binary is all of it but the CA bundle; the guard moves with deliberate
# growth, in a commit that says what grew.
MAX_MB=${MAX_MB:-27}
STANDIN_LABEL=io.slash-sandbox.standin-go

failures=0
pass() { printf 'PASS  %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; failures=$((failures + 1)); }
step() { printf '==> %s\n' "$*"; }
t0=$SECONDS

# ---------------------------------------------------------------- cleanup
ctr="" run_pid="" tmp=$(mktemp -d)
cleanup() {
	if [[ -n $run_pid ]]; then
		kill -TERM -- "-$run_pid" 2>/dev/null || true
		for _ in $(seq 25); do kill -0 -- "-$run_pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL -- "-$run_pid" 2>/dev/null || true
		wait "$run_pid" 2>/dev/null || true
	fi
	if [[ -n $ctr ]]; then buildah rm "$ctr" >/dev/null 2>&1 || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- 1. buildah
missing=()
for tool in buildah curl jq; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if ((${#missing[@]})); then
	step "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq "${missing[@]}" >/dev/null
fi
step "$(buildah version | head -1 | tr -s ' ')"

# ---------------------------------------------------------------- 2. stand-in
go_version=$(go env GOVERSION)
have=$(buildah inspect --type image --format "{{index .OCIv1.Config.Labels \"$STANDIN_LABEL\"}}" "$BUILDER" 2>/dev/null || echo missing)
if [[ $have == "$go_version" && -z ${REBUILD_STANDIN:-} ]]; then
	step "reusing stand-in $BUILDER ($go_version)"
elif [[ $have != missing && $have == "" && -z ${REBUILD_STANDIN:-} ]]; then
	step "using existing (real) $BUILDER"
else
	step "creating stand-in $BUILDER from $(go env GOROOT) ($go_version)"
	# Skeleton filesystem: writable /tmp, $HOME (for GOCACHE), GOPATH, CA bundle.
	skel=$tmp/skel
	mkdir -p "$skel"/{tmp,root,go/bin,etc/ssl/certs}
	chmod 1777 "$skel/tmp"
	cp /etc/ssl/certs/ca-certificates.crt "$skel/etc/ssl/certs/"
	sctr=$(buildah from scratch)
	ctr=$sctr # so the trap removes it if anything below fails
	buildah copy --quiet "$sctr" "$skel" / >/dev/null
	buildah copy --quiet "$sctr" "$(go env GOROOT)" /usr/local/go >/dev/null
	buildah config \
		--env PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		--env GOROOT=/usr/local/go \
		--env GOPATH=/go \
		--env HOME=/root \
		--env GOTOOLCHAIN=local \
		--env "GOPROXY=$(go env GOPROXY)" \
		--env "GOSUMDB=$(go env GOSUMDB)" \
		--env GOFLAGS=-mod=mod \
		--workingdir /go \
		--label "$STANDIN_LABEL=$go_version" \
		"$sctr"
	old_builder=$(buildah inspect --type image --format '{{.FromImageID}}' "$BUILDER" 2>/dev/null || true)
	buildah commit --quiet --rm "$sctr" "$BUILDER" >/dev/null
	ctr=""
	if [[ -n $old_builder ]]; then buildah rmi "$old_builder" >/dev/null 2>&1 || true; fi
fi

# ---------------------------------------------------------------- 3. build
step "buildah bud -> $IMAGE"
old_id=$(buildah inspect --type image --format '{{.FromImageID}}' "$IMAGE" 2>/dev/null || true)
b0=$SECONDS
# --pull=never: resolve FROM from local storage only (never contact a registry).
# --isolation chroot: no user/network namespaces needed; RUN uses host network.
# No --layers by default (no intermediate images pile up); export
# BUILDAH_LAYERS=true to cache steps between runs.
if buildah bud --isolation chroot --pull=never --format docker -f "$ROOT/Dockerfile" -t "$IMAGE" "$ROOT" >"$tmp/bud.log" 2>&1; then
	pass "image builds ($((SECONDS - b0)) s)"
else
	tail -n 30 "$tmp/bud.log"
	fail "image builds (see log above)"
	exit 1
fi
new_id=$(buildah inspect --type image --format '{{.FromImageID}}' "$IMAGE")
if [[ -n $old_id && $old_id != "$new_id" ]]; then
	buildah rmi "$old_id" >/dev/null 2>&1 || true # drop the superseded image
fi

# ---------------------------------------------------------------- 4. run
fmt() { buildah inspect --type image --format "$1" "$IMAGE"; }
mapfile -t entrypoint < <(fmt '{{range .OCIv1.Config.Entrypoint}}{{println .}}{{end}}')
# The HEALTHCHECK's test, ["CMD", "/slash-sandbox", "health"]: its command
# is what follows "CMD".
mapfile -t healthcheck < <(fmt '{{if .Docker.Config.Healthcheck}}{{range .Docker.Config.Healthcheck.Test}}{{println .}}{{end}}{{end}}')

port=""
for p in $(seq 18080 18179); do
	if ! (: </dev/tcp/127.0.0.1/"$p") 2>/dev/null; then port=$p; break; fi
done
[[ -n $port ]] || { fail "no free loopback port in 18080-18179"; exit 1; }

step "running ${entrypoint[*]:-<none>} on 127.0.0.1:$port"
ctr=$(buildah from --pull=never --quiet "$IMAGE")
# buildah run does not apply ENTRYPOINT itself, so pass it as the command;
# it does apply the image's USER and ENV (SANDBOX_ADDR overridden here).
setsid buildah run --isolation chroot --env "SANDBOX_ADDR=127.0.0.1:$port" --env SANDBOX_DATA=/data/sandbox.db \
	"$ctr" -- "${entrypoint[@]:-/slash-sandbox}" >"$tmp/run.log" 2>&1 &
run_pid=$!

healthy=""
for _ in $(seq 50); do
	if body=$(curl -fsS --max-time 1 "http://127.0.0.1:$port/_sandbox/health" 2>/dev/null); then
		healthy=1
		break
	fi
	kill -0 "$run_pid" 2>/dev/null || break # exited early
	sleep 0.2
done
if [[ -n $healthy ]]; then
	pass "GET /_sandbox/health -> 200 ${body:0:120}"
else
	tail -n 20 "$tmp/run.log"
	if kill -0 "$run_pid" 2>/dev/null; then
		fail "GET /_sandbox/health (no 200 within 10 s)"
	else
		fail "GET /_sandbox/health (server exited; log above)"
	fi
fi

# healthcheck runs the image's HEALTHCHECK command in a container of the
# image. Here the server listens on 127.0.0.1:$port of the host's network,
# not on the image's 0.0.0.0:8080, so the command is told where with
# --server.
healthcheck() {
	local hc
	hc=$(buildah from --pull=never --quiet "$IMAGE")
	buildah run --isolation chroot "$hc" -- "${healthcheck[@]:1}" --server "http://127.0.0.1:$port" >"$tmp/health.log" 2>&1
	local code=$?
	buildah rm "$hc" >/dev/null
	return $code
}

if [[ -n $healthy ]]; then
	if [[ $body == *'"persistent":true'* ]]; then
		pass "keeps its state in /data/sandbox.db (the non-root user may write /data)"
	else
		fail "SANDBOX_DATA=/data/sandbox.db is not persistent: ${body:0:200}"
	fi
	if [[ ${healthcheck[0]:-} != CMD ]]; then
		fail "no exec-form HEALTHCHECK to run"
	elif healthcheck; then
		pass "HEALTHCHECK ${healthcheck[*]:1} exits 0 while the server is up: $(tr '\n' ' ' <"$tmp/health.log" | tr -s ' ')"
	else
		cat "$tmp/health.log"
		fail "HEALTHCHECK ${healthcheck[*]:1} failed while the server is up"
	fi

	# Which uid does the server process actually run as?
	uids=$({ ps -o uid=,comm= -g "$run_pid" 2>/dev/null || true; } |
		awk '$2 == "slash-sandbox" {print $1}' | sort -u | tr '\n' ' ')
	if [[ ${uids% } == 65532 ]]; then
		pass "server process runs as uid 65532"
	else
		fail "server process uid: '${uids% }' (want 65532)"
	fi

	kill -TERM -- "-$run_pid" 2>/dev/null || true
	stopped=""
	for _ in $(seq 50); do
		kill -0 -- "-$run_pid" 2>/dev/null || { stopped=1; break; }
		sleep 0.1
	done
	if [[ -n $stopped ]]; then pass "stops on SIGTERM"; else fail "still running 5 s after SIGTERM"; fi
	if [[ ${healthcheck[0]:-} == CMD ]]; then
		if healthcheck; then
			fail "HEALTHCHECK exits 0 with no server running"
		else
			pass "HEALTHCHECK fails once the server has stopped"
		fi
	fi
fi
kill -KILL -- "-$run_pid" 2>/dev/null || true
wait "$run_pid" 2>/dev/null || true
run_pid=""
buildah rm "$ctr" >/dev/null
ctr=""

# ---------------------------------------------------------------- 5. config
user=$(fmt '{{.OCIv1.Config.User}}')
if [[ $user =~ ^65532(:65532)?$ ]]; then
	pass "user is non-root ($user)"
else
	fail "user is '$user' (want 65532:65532)"
fi

# shellcheck disable=SC2016 # Go template, not shell
ports=$(fmt '{{range $p, $_ := .OCIv1.Config.ExposedPorts}}{{$p}} {{end}}')
if [[ " $ports " == *" 8080/tcp "* ]]; then pass "exposes 8080/tcp"; else fail "exposed ports: '$ports' (want 8080/tcp)"; fi

if [[ ${entrypoint[*]:-} == /slash-sandbox ]]; then
	pass "entrypoint [\"/slash-sandbox\"]"
else
	fail "entrypoint is '$(fmt '{{json .OCIv1.Config.Entrypoint}}')' (want [\"/slash-sandbox\"])"
fi

if [[ ${healthcheck[*]:-} == "CMD /slash-sandbox health" ]]; then
	pass "healthcheck [\"CMD\", \"/slash-sandbox\", \"health\"] (exec form: scratch has no shell)"
else
	fail "healthcheck is '$(fmt '{{json .Docker.Config.Healthcheck}}')' (want exec form CMD /slash-sandbox health)"
fi

env_lines=$(fmt '{{range .OCIv1.Config.Env}}{{println .}}{{end}}')
if grep -qx 'SANDBOX_ADDR=0.0.0.0:8080' <<<"$env_lines"; then
	pass "env SANDBOX_ADDR=0.0.0.0:8080"
else
	fail "env SANDBOX_ADDR=0.0.0.0:8080 missing"
fi

# Uncompressed size in local storage, as `buildah images` reports it
# (decimal units, e.g. "6.27 MB").
size=$(buildah images --json "$IMAGE" | jq -r '.[0].size')
mb=$(awk -v s="$size" 'BEGIN {
	n = s + 0; u = toupper(s); sub(/^[0-9. ]+/, "", u)
	f["B"] = 1e-6; f["KB"] = 1e-3; f["MB"] = 1; f["GB"] = 1e3; f["TB"] = 1e6
	if (!(u in f)) exit 1
	printf "%.2f", n * f[u] }') || { fail "cannot parse image size '$size'"; mb=""; }
if [[ -n $mb ]] && awk -v m="$mb" -v l="$MAX_MB" 'BEGIN {exit !(m < l)}'; then
	pass "image size $mb MB (< $MAX_MB MB)"
else
	fail "image size $mb MB (limit $MAX_MB MB)"
fi

echo "---- $((SECONDS - t0)) s total; $failures failure(s)"
((failures == 0))
