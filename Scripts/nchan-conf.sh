# Sourced by peers.sh, instructions.sh, publish-instructions.sh and http-floor.sh.

# nchan_missing: the Debian packages Nchan still needs here, one a line
# (nothing when nginx and its Nchan module are installed).
nchan_missing() {
  command -v nginx >/dev/null || echo nginx-light
  [ -f /usr/lib/nginx/modules/ngx_nchan_module.so ] || echo libnginx-mod-nchan
}

# nchan_conf WORK PORT MASTER [CERT KEY]
# prints an nginx.conf for Nchan with Switchboard's paths (SSE, WebSocket, long-poll
# at /lp/ROOM with every message available in one answer, publishing),
# one worker, files under WORK. MASTER: on (a worker process, as deployed)
# or off (one process, for valgrind). With CERT and KEY, the port speaks
# TLS only (nginx `ssl`, TLS 1.2 and 1.3), as Switchboard's does with
# --tls-cert and --tls-key.
nchan_conf() {
  local work=$1 port=$2 master=$3 cert=${4:-} key=${5:-}
  local listen="listen 127.0.0.1:$port backlog=4096;"
  if [ -n "$cert" ]; then
    listen="listen 127.0.0.1:$port ssl backlog=4096;
    ssl_certificate $cert;
    ssl_certificate_key $key;
    ssl_protocols TLSv1.2 TLSv1.3;"
  fi
  cat <<CONF
load_module /usr/lib/nginx/modules/ngx_nchan_module.so;
worker_processes 1;
worker_rlimit_nofile 40000;
daemon off;
master_process $master;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 20000; multi_accept on; }
http {
  access_log off;
  client_body_temp_path $work/body;
  proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi;
  scgi_temp_path $work/scgi;
  keepalive_requests 100000000;
  keepalive_timeout 120s;
  server {
    $listen
    location ~ ^/api/rooms/([A-Za-z0-9_.-]+)/events\$ {
      nchan_subscriber eventsource;
      nchan_channel_id \$1;
    }
    location ~ ^/api/rooms/([A-Za-z0-9_.-]+)/ws\$ {
      # Each message a text frame of its body, as Switchboard's WebSocket sends it
      # (no pings: Nchan's nchan_websocket_ping_interval is off unless set).
      nchan_subscriber websocket;
      nchan_channel_id \$1;
    }
    location ~ ^/lp/([A-Za-z0-9_.-]+)\$ {
      # Every message available in one answer (one per line), as Switchboard's long poll does.
      nchan_subscriber longpoll;
      nchan_longpoll_multipart_response raw;
      nchan_channel_id \$1;
    }
    location ~ ^/api/rooms/([A-Za-z0-9_.-]+)/messages\$ {
      nchan_publisher;
      nchan_channel_id \$1;
      nchan_message_buffer_length 1000;
      nchan_message_timeout 10m;
    }
    location = /static { return 200 '{"messages":[],"next":0}'; }
    location = /nchan_status { nchan_stub_status; }
  }
}
CONF
}
