"""Filter.save(path) replaces the file atomically (issue 48): a save that
fails part way -- here under RLIMIT_FSIZE, SIGXFSZ ignored, in a child
process -- leaves the old file byte for byte and no temporary file beside
it; a save that succeeds leaves the new bytes, the file's mode, a symlink
as a link, and no temporary file."""
import os
import stat
import subprocess
import sys
import textwrap

import filterkit

# The child: a filter far larger than the limit, saved over the old file.
CHILD = textwrap.dedent("""
    import resource, signal, sys
    import filterkit
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limit = int(sys.argv[2])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    f = filterkit.Filter("bloom", capacity=200000, fpr=0.001)
    f.update(range(1000))
    assert len(f.to_bytes()) > 3 * limit
    try:
        f.save(sys.argv[1])
    except OSError as e:
        print("OSError", e.errno)
        sys.exit(3)
    sys.exit(0)
""")


def leftovers(folder, name):
    return sorted(n for n in os.listdir(folder) if n != name and n.startswith(name))


def run_child(path, limit, cwd):
    # the package is found through PYTHONPATH (tests/cli_python.sh sets it);
    # the child runs in a scratch folder, so nothing of the tree shadows a module
    return subprocess.run([sys.executable, "-c", CHILD, str(path), str(limit)], cwd=str(cwd),
                          capture_output=True, text=True, timeout=120)


def test_failed_save_keeps_the_old_file(tmp_path):
    path = tmp_path / "f.fk"
    old = filterkit.Filter("bloom", capacity=1000, fpr=0.01)
    old.update(["a", "b", "c"])
    old.save(str(path))
    before = path.read_bytes()
    assert 0 < len(before) < 65536
    r = run_child(path, 65536, tmp_path)
    assert r.returncode == 3, (r.returncode, r.stdout, r.stderr)  # the save raised OSError
    assert "OSError" in r.stdout
    assert path.read_bytes() == before  # the old file, byte for byte
    assert leftovers(tmp_path, "f.fk") == []  # no temporary file left
    g = filterkit.load(str(path))
    assert "a" in g and "b" in g and "c" in g


def test_failed_save_of_a_new_file_leaves_nothing(tmp_path):
    path = tmp_path / "new.fk"
    r = run_child(path, 65536, tmp_path)
    assert r.returncode == 3, (r.returncode, r.stdout, r.stderr)
    assert not path.exists()
    assert leftovers(tmp_path, "new.fk") == []


def test_save_replaces_keeps_mode_and_link(tmp_path):
    real = tmp_path / "real.fk"
    link = tmp_path / "link.fk"
    a = filterkit.Filter("cuckoo", capacity=1000, fpr=0.01)
    a.add("x")
    a.save(str(real))
    os.chmod(real, 0o640)
    os.symlink("real.fk", link)
    b = filterkit.Filter("cuckoo", capacity=1000, fpr=0.01)
    b.update(["x", "y"])
    b.save(str(link))
    assert os.path.islink(link) and os.readlink(link) == "real.fk"
    assert real.read_bytes() == b.to_bytes()
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert leftovers(tmp_path, "real.fk") == [] and leftovers(tmp_path, "link.fk") == []
    # a new file gets 0666 less the umask, as open() would give it
    mask = os.umask(0)
    os.umask(mask)
    b.save(str(tmp_path / "fresh.fk"))
    assert stat.S_IMODE(os.stat(tmp_path / "fresh.fk").st_mode) == 0o666 & ~mask
    # not a regular file: written in place, never replaced
    b.save(os.devnull)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
