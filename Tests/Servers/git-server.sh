#!/bin/sh
# Starts a real git server on loopback for the tests, serving the bare repositories in DIR/repos.
#   git-server.sh start KIND DIR PORT     KIND: daemon | daemon-readonly | ssh | http | http-auth | https | https-ip
#   git-server.sh stop DIR
# `start` prints the base URL (append the repository name, e.g. vault.git). For ssh it also writes
# DIR/id_ed25519 (the user key) and DIR/known_hosts; for http-auth the password is DIR/token
# (user "quire"). https serves TLS with a self-signed certificate made here, DIR/cert.pem, issued
# for the name localhost (the URL uses it); https-ip issues it for the address 127.0.0.1 only
# (subjectAltName=IP:127.0.0.1). daemon-readonly serves only repositories holding
# git-daemon-export-ok and takes no pushes (git daemon's defaults). Everything lives in DIR; nothing outside it is touched.
set -eu
cmd=${1:?usage: git-server.sh start KIND DIR PORT | stop DIR}

stop() {
    dir=$1
    for pidfile in "$dir"/*.pid; do
        [ -f "$pidfile" ] || continue
        pid=$(cat "$pidfile" 2>/dev/null || true)
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
        rm -f "$pidfile"
    done
}

wait_port() {
    port=$1; i=0
    while [ $i -lt 100 ]; do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
        if command -v bash >/dev/null && bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then return 0; fi
        sleep 0.05; i=$((i + 1))
    done
    echo "git-server.sh: nothing listens on 127.0.0.1:$port" >&2
    return 1
}

case "$cmd" in
stop) stop "${2:?DIR}"; exit 0 ;;
start) ;;
*) echo "usage: git-server.sh start KIND DIR PORT | stop DIR" >&2; exit 2 ;;
esac

kind=${2:?KIND}; dir=${3:?DIR}; port=${4:?PORT}
mkdir -p "$dir/repos"
dir=$(cd "$dir" && pwd)

case "$kind" in
daemon|daemon-readonly)
    open="--export-all --enable=receive-pack"
    [ "$kind" = daemon ] || open=""
    # shellcheck disable=SC2086
    git daemon --reuseaddr --base-path="$dir/repos" $open \
        --listen=127.0.0.1 --port="$port" --pid-file="$dir/daemon.pid" --detach
    wait_port "$port"
    echo "git://127.0.0.1:$port/"
    ;;
ssh)
    mkdir -p /run/sshd
    [ -f "$dir/host_key" ] || ssh-keygen -q -t ed25519 -N "" -f "$dir/host_key"
    [ -f "$dir/id_ed25519" ] || ssh-keygen -q -t ed25519 -N "" -f "$dir/id_ed25519"
    cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
    chmod 600 "$dir/authorized_keys"
    cat > "$dir/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin yes
UsePAM no
StrictModes no
LogLevel ERROR
CONF
    /usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log"
    wait_port "$port"
    printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/host_key.pub")" > "$dir/known_hosts"
    echo "ssh://$(id -un)@127.0.0.1:$port$dir/repos/"
    ;;
http|http-auth|https|https-ip)
    mkdir -p "$dir/nginx-tmp"
    rm -f "$dir/fcgi.sock"
    ( /usr/sbin/fcgiwrap -s "unix:$dir/fcgi.sock" >/dev/null 2>&1 & echo $! > "$dir/fcgiwrap.pid" )
    auth=""
    if [ "$kind" = http-auth ]; then
        [ -f "$dir/token" ] || printf 'tok-%s' "$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" > "$dir/token"
        printf 'quire:%s\n' "$(openssl passwd -apr1 "$(cat "$dir/token")")" > "$dir/htpasswd"
        auth="auth_basic \"quire test\"; auth_basic_user_file $dir/htpasswd;"
    fi
    tls=""; scheme=http; host=127.0.0.1
    case "$kind" in https*)
        scheme=https
        if [ "$kind" = https ]; then name=DNS:localhost; host=localhost; else name=IP:127.0.0.1; fi
        [ -f "$dir/cert.pem" ] || openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=quire test" \
            -addext "subjectAltName=$name" -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
        tls="ssl; ssl_certificate $dir/cert.pem; ssl_certificate_key $dir/key.pem"
        ;;
    esac
    cat > "$dir/nginx.conf" <<CONF
user root;
worker_processes 1;
daemon on;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $dir/nginx-tmp/body;
    fastcgi_temp_path $dir/nginx-tmp/fastcgi;
    proxy_temp_path $dir/nginx-tmp/proxy;
    uwsgi_temp_path $dir/nginx-tmp/uwsgi;
    scgi_temp_path $dir/nginx-tmp/scgi;
    client_max_body_size 0;
    server {
        listen 127.0.0.1:$port $tls;
        location / {
            $auth
            include /etc/nginx/fastcgi_params;
            fastcgi_pass unix:$dir/fcgi.sock;
            fastcgi_param SCRIPT_FILENAME /usr/lib/git-core/git-http-backend;
            fastcgi_param GIT_PROJECT_ROOT $dir/repos;
            fastcgi_param GIT_HTTP_EXPORT_ALL "";
            fastcgi_param PATH_INFO \$uri;
            fastcgi_param REMOTE_USER \$remote_user;
        }
    }
}
CONF
    i=0; while [ ! -S "$dir/fcgi.sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    /usr/sbin/nginx -c "$dir/nginx.conf" -e "$dir/nginx-error.log" 2>>"$dir/nginx-error.log" || /usr/sbin/nginx -c "$dir/nginx.conf"
    wait_port "$port"
    echo "$scheme://$host:$port/"
    ;;
*) echo "git-server.sh: unknown server kind '$kind'" >&2; exit 2 ;;
esac
