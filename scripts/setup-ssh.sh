#!/usr/bin/env bash
# Installs what the `measured run --on` tests need (tests/remote.rs starts an OpenSSH server
# on 127.0.0.1 as the current user): Debian's openssh-server and openssh-client, as root
# (otherwise it says how), and /run/sshd, the folder a root sshd needs, which a reboot empties.
# Debian starts the system's sshd when openssh-server is installed on a machine running
# systemd; the tests do not use it.
set -euo pipefail
root() { [ "$(id -u)" = 0 ]; }
if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null 2>&1 || ! command -v ssh-keygen >/dev/null 2>&1; then
  if root && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server openssh-client >/dev/null
  else
    echo "the run --on tests need OpenSSH's server and client: sudo apt-get install openssh-server openssh-client" >&2
    exit 1
  fi
fi
if root && [ ! -d /run/sshd ]; then
  mkdir -p -m 0755 /run/sshd
fi
