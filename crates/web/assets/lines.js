/**
 * A game's lines: `main`, the game's own, and each variation, a line that leaves another (its
 * `parent`) after `start` commands. A line's commands are its parent's first `start` ones and
 * then its own `entries`, each {command, result, valid, reason, notation} as the server judged it
 * (/api/duck/game). `version` grows at each change, so that a list drawn from the lines is drawn
 * again only then.
 */
export class Lines {
  constructor(entries = []) {
    this.version = 0;
    this.reset(entries);
  }

  /** The main line `entries` alone. */
  reset(entries) {
    this.all = [{ id: 'main', parent: null, start: 0, entries }];
    this.next = 1;
    this.version += 1;
  }

  /** The line `id` (the main line if there is none). */
  line(id) {
    return this.all.find((line) => line.id === id) ?? this.all[0];
  }

  /** How many commands `line` has, its parent's included. */
  end(line) {
    return line.start + line.entries.length;
  }

  /** The first `n` commands along `line`. */
  commands(line, n) {
    if (!line.parent || n > line.start) {
      const own = line.entries.slice(0, Math.max(0, n - line.start)).map((entry) => entry.command);
      return line.parent ? [...this.commands(this.line(line.parent), line.start), ...own] : own;
    }
    return this.commands(this.line(line.parent), n);
  }

  /** The line that holds the `ply`-th command (1-based) along `line`. */
  owner(line, ply) {
    let owner = line;
    while (owner.parent && ply <= owner.start) owner = this.line(owner.parent);
    return owner;
  }

  /**
   * Puts the valid `entry`, played after `at` commands of `line`, in the game: at the end of the
   * line it extends it; where the line (or another) already goes on with the same command it
   * follows that; anywhere else it starts a variation. Answers the line and ply reached.
   */
  place(line, at, entry) {
    if (at === this.end(line)) {
      line.entries.push(entry);
      this.version += 1;
      return { line: line.id, at: at + 1 };
    }
    const wanted = [...this.commands(line, at), entry.command].join(',');
    const candidates = [line, ...this.all.filter((other) => other !== line)];
    const known = candidates.find((other) => this.end(other) > at && this.commands(other, at + 1).join(',') === wanted);
    if (known) return { line: known.id, at: at + 1 };
    const variation = { id: `v${this.next++}`, parent: this.owner(line, at + 1).id, start: at, entries: [entry] };
    this.all.push(variation);
    this.version += 1;
    return { line: variation.id, at: at + 1 };
  }

  /** Adds a variation leaving the main line after `start` commands with `entries`. */
  branch(start, entries) {
    const line = { id: `v${this.next++}`, parent: 'main', start, entries };
    this.all.push(line);
    this.version += 1;
    return line;
  }

  /** Removes `line`'s variations that leave it after more than `n` commands, with theirs. */
  prune(line, n) {
    const gone = new Set();
    const drop = (parent, from) => {
      for (const other of this.all) {
        if (other.parent === parent && other.start > from && !gone.has(other.id)) {
          gone.add(other.id);
          drop(other.id, -1);
        }
      }
    };
    drop(line.id, n);
    this.all = this.all.filter((other) => !gone.has(other.id));
    this.version += 1;
  }

  /** Removes the variation `line` and its own variations. */
  remove(line) {
    this.all = this.all.filter((other) => other !== line);
    this.prune(line, -1);
  }
}
