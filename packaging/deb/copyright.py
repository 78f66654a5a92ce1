#!/usr/bin/env python3
# Writes the Debian copyright file (DEP-5) of the outpost package to standard output:
# Outpost's own licence, then every piece of someone else's work that the executable
# carries inside it: the header-only C++ libraries compiled in, the opening names,
# and the web UI's npm packages (read from web/package-lock.json: the packages the
# UI ships, not the tools that build it), each with its licence text taken from the
# package itself where it has one.
# Usage: packaging/deb/copyright.py SOURCE_DIR
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import re
import os
import sys

src = sys.argv[1]
out = []


def para(**fields):
    lines = []
    for key, value in fields.items():
        key = key.replace("_", "-")
        value = value.strip("\n").split("\n")
        lines.append(f"{key}: {value[0]}")
        lines += [(" " + v) if v.strip() else " ." for v in value[1:]]
    out.append("\n".join(lines))


para(Format="https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
     Upstream_Name="Outpost",
     Comment="Built from the Outpost source by scripts/package.sh.")
para(Files="*", Copyright="2026 The Outpost developers", License="GPL-3+\n"
     "Outpost is free software: you can redistribute it and/or modify it under the\n"
     "terms of the GNU General Public License as published by the Free Software\n"
     "Foundation, either version 3 of the License, or (at your option) any later\n"
     "version.\n\nOn Debian systems, the complete text of the GNU General Public License\n"
     "version 3 can be found in /usr/share/common-licenses/GPL-3.")
para(Files="data/openings/*", Copyright="lichess.org contributors (lichess-org/chess-openings)",
     License="CC0-1.0\nOn Debian systems, the complete text of the CC0 1.0 Universal licence can be\n"
     "found in /usr/share/common-licenses/CC0-1.0.")
para(Files="/usr/include/nlohmann/*", Copyright="2013-2022 Niels Lohmann", License="MIT",
     Comment="nlohmann-json (Debian nlohmann-json3-dev), header-only, compiled into the executable.")
para(Files="/usr/include/CLI/*", Copyright="2017-2022 University of Cincinnati, developed by Henry Schreiner",
     License="BSD-3-Clause", Comment="CLI11 (Debian libcli11-dev), header-only, compiled into the executable.")
para(Files="/usr/include/boost/*", Copyright="Beman Dawes, Christopher M. Kohlhoff, Vinnie Falco and others",
     License="BSL-1.0", Comment="Boost.Asio and Boost.Beast (Debian libboost-dev), header-only, compiled in.")

lock = json.load(open(os.path.join(src, "web", "package-lock.json")))
texts = {}
for path, pkg in sorted(lock["packages"].items()):
    if not path or pkg.get("dev") or pkg.get("devOptional"):
        continue
    name = path.split("node_modules/")[-1]
    licence = pkg.get("license", "UNKNOWN")
    holder = f"the authors of {name}"
    meta_path = os.path.join(src, "web", path, "package.json")
    if os.path.isfile(meta_path):
        author = json.load(open(meta_path)).get("author")
        if isinstance(author, dict):
            author = author.get("name")
        if author:
            holder = author
    lic_file = None
    for cand in ("LICENSE", "LICENSE.md", "LICENSE.txt", "license", "LICENCE"):
        p = os.path.join(src, "web", path, cand)
        if os.path.isfile(p):
            lic_file = p
            break
    if lic_file:
        text = open(lic_file, encoding="utf-8", errors="replace").read()
        for line in text.splitlines() if not licence.startswith("GPL") else []:
            m = re.match(r"\s*copyright\s*(?:\(c\)|©)?\s*(\d{4}.*)", line, re.IGNORECASE)
            if m:
                holder = m.group(1).strip()
                break
        if not licence.startswith("GPL"):
            texts.setdefault(licence, text)
    if licence == "GPL-3.0-or-later":
        licence = "GPL-3+"
    para(Files=f"web/{path}/*", Copyright=holder, License=licence,
         Comment=f"npm package {name} {pkg.get('version', '')}, part of the web UI compiled into the executable.")

STANDARD = {
    "MIT": "Permission is hereby granted, free of charge, to any person obtaining a copy of\n"
    "this software and associated documentation files (the \"Software\"), to deal in\n"
    "the Software without restriction, including without limitation the rights to\n"
    "use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of\n"
    "the Software, and to permit persons to whom the Software is furnished to do so,\n"
    "subject to the following conditions:\n\n"
    "The above copyright notice and this permission notice shall be included in all\n"
    "copies or substantial portions of the Software.\n\n"
    "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR\n"
    "IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS\n"
    "FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR\n"
    "COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN\n"
    "AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION\n"
    "WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.",
    "BSD-3-Clause": "Redistribution and use in source and binary forms, with or without modification,\n"
    "are permitted provided that the following conditions are met:\n\n"
    "1. Redistributions of source code must retain the above copyright notice, this\n"
    "list of conditions and the following disclaimer.\n\n"
    "2. Redistributions in binary form must reproduce the above copyright notice, this\n"
    "list of conditions and the following disclaimer in the documentation and/or\n"
    "other materials provided with the distribution.\n\n"
    "3. Neither the name of the copyright holder nor the names of its contributors may\n"
    "be used to endorse or promote products derived from this software without\n"
    "specific prior written permission.\n\n"
    "THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS \"AS IS\" AND\n"
    "ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED\n"
    "WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE\n"
    "DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR\n"
    "ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES\n"
    "(INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS\n"
    "OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY\n"
    "THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING\n"
    "NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN\n"
    "IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.",
    "BSL-1.0": "Permission is hereby granted, free of charge, to any person or organization\n"
    "obtaining a copy of the software and accompanying documentation covered by this\n"
    "license (the \"Software\") to use, reproduce, display, distribute, execute, and\n"
    "transmit the Software, and to prepare derivative works of the Software, and to\n"
    "permit third-parties to whom the Software is furnished to do so, all subject to\n"
    "the following:\n\n"
    "The copyright notices in the Software and this entire statement, including the\n"
    "above license grant, this restriction and the following disclaimer, must be\n"
    "included in all copies of the Software, in whole or in part, and all derivative\n"
    "works of the Software, unless such copies or derivative works are solely in the\n"
    "form of machine-executable object code generated by a source language processor.\n\n"
    "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR\n"
    "IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS\n"
    "FOR A PARTICULAR PURPOSE, TITLE AND NON-INFRINGEMENT. IN NO EVENT SHALL THE\n"
    "COPYRIGHT HOLDERS OR ANYONE DISTRIBUTING THE SOFTWARE BE LIABLE FOR ANY DAMAGES OR\n"
    "OTHER LIABILITY, WHETHER IN CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN\n"
    "CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.",
}
for licence in ("MIT", "BSD-3-Clause", "BSL-1.0"):
    texts[licence] = STANDARD[licence]
for licence, text in sorted(texts.items()):
    para(License=licence + "\n" + text)
print("\n\n".join(out))
