#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The man page keeps up with the tool: every command that `cute-layout --help`
lists under "commands:" is described in docs/cute-layout.1.

    manpage.py TOOL MANPAGE
"""
import re
import subprocess
import sys


def main():
    tool, manpage = sys.argv[1], sys.argv[2]
    usage = subprocess.run([tool, '--help'], stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
    commands = []
    section = False
    for line in usage.splitlines():
        if line.strip() == 'commands:':
            section = True
        elif section and not line.strip():
            break
        elif section:
            commands.append(line.split()[0])
    with open(manpage, encoding='utf-8') as f:
        # roff escapes '-' as '\-'
        text = f.read().replace('\\-', '-')
    documented = set(re.findall(r'^\.(?:B|BI|BR|TP)\s+"?([-\w]+)', text, flags=re.M))
    documented |= set(re.findall(r'^\.BR\s+([-\w]+)\s*",', text, flags=re.M))
    missing = [c for c in commands if c not in documented and c.lstrip('-') not in documented]
    print(f'commands in --help: {" ".join(commands)}')
    if not commands:
        print('found no "commands:" section in `cute-layout --help`')
        return 1
    if missing:
        print(f'not described in {manpage}: {" ".join(missing)} (add a .TP entry under COMMANDS)')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
