/**
 * A read-only view of the files topology reads (sysfs, /proc/cpuinfo), rooted at `/` or
 * at a directory standing in for it. Symlinks are resolved component by component inside
 * the root, and every file and link read is recorded so a capture can reproduce it.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join, posix } from 'node:path'

/** Virtual absolute paths (`/sys/...`) mapped onto a real root directory. */
export class FsView {
  /** Virtual path → bytes read. */
  readonly files = new Map<string, Buffer>()
  /** Virtual path of a symlink → its target, relative to the link's directory. */
  readonly links = new Map<string, string>()
  private readonly sysAsRoot: boolean

  /**
   * `root` is `/` for the live machine, or a directory holding `sys/` and `proc/`; a
   * directory that is itself a sysfs mount (has `bus/` or `devices/`) stands for `/sys`.
   */
  constructor(readonly root: string) {
    this.sysAsRoot =
      root !== '/' &&
      !existsSync(join(root, 'sys')) &&
      (existsSync(join(root, 'bus')) || existsSync(join(root, 'devices')))
  }

  /** The real path of a virtual path (no symlink resolution). */
  real(vpath: string): string {
    if (this.root === '/') return vpath
    if (this.sysAsRoot)
      return vpath.startsWith('/sys/') || vpath === '/sys'
        ? join(this.root, vpath.slice(4))
        : join(this.root, '.none', vpath)
    return join(this.root, vpath)
  }

  /** Resolves symlinks in `vpath` inside the root, recording each link it follows. */
  resolve(vpath: string): string {
    let path = posix.normalize(vpath)
    for (let hops = 0; hops < 40; hops++) {
      const parts = path.split('/').filter((p) => p !== '')
      let changed = false
      for (let i = 1; i <= parts.length && !changed; i++) {
        const prefix = `/${parts.slice(0, i).join('/')}`
        let target: string
        try {
          if (!lstatSync(this.real(prefix)).isSymbolicLink()) continue
          target = readlinkSync(this.real(prefix))
        } catch {
          return path
        }
        const dir = posix.dirname(prefix)
        const abs = target.startsWith('/') ? posix.normalize(target) : posix.join(dir, target)
        this.links.set(prefix, posix.relative(dir, abs) || '.')
        path = posix.join(abs, ...parts.slice(i))
        changed = true
      }
      if (!changed) return path
    }
    return path
  }

  /** The bytes of a file, or undefined when absent or unreadable. */
  bytes(vpath: string): Buffer | undefined {
    const p = this.resolve(vpath)
    try {
      const b = readFileSync(this.real(p))
      this.files.set(p, b)
      return b
    } catch {
      return undefined
    }
  }

  /** A file's text, trimmed; undefined when absent or unreadable. */
  text(vpath: string): string | undefined {
    return this.bytes(vpath)?.toString('utf8').trim()
  }

  /** The basename a symlink points at (e.g. an `iommu_group` link → "42"). */
  linkName(vpath: string): string | undefined {
    const dir = this.resolve(posix.dirname(vpath))
    const link = posix.join(dir, posix.basename(vpath))
    try {
      const target = readlinkSync(this.real(link))
      const abs = target.startsWith('/') ? target : posix.join(dir, target)
      this.links.set(link, posix.relative(dir, abs))
      return posix.basename(target)
    } catch {
      return undefined
    }
  }

  /** Entries of a directory, sorted; empty when absent. */
  list(vpath: string): string[] {
    try {
      return readdirSync(this.real(this.resolve(vpath))).sort()
    } catch {
      return []
    }
  }

  /** Writes every file and link read under `dir` (as a root), links as real symlinks. */
  saveTo(dir: string): void {
    for (const [p, b] of this.files) {
      mkdirSync(join(dir, posix.dirname(p)), { recursive: true })
      writeFileSync(join(dir, p), b)
    }
    for (const [p, target] of this.links) {
      mkdirSync(join(dir, posix.dirname(p)), { recursive: true })
      try {
        lstatSync(join(dir, p))
      } catch {
        symlinkSync(target, join(dir, p))
      }
    }
  }
}
