import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BOOT_SCRIPT } from '@vitalwatch/shared';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** The file the server reads: which page to send for which URL path (`AreaPagesFile`). */
export const AREA_PAGES_FILE = 'area-pages.json';

/** `AREA_PAGES_FILE`: pages by exact path first, then by the longest path prefix; else index.html. */
export interface AreaPagesFile {
  exact: Record<string, string>;
  prefix: Record<string, string>;
}

export interface AreaOptions {
  /** The URL path prefixes the area serves. */
  paths: readonly string[];
  /**
   * Static first screens (exact path → an HTML fragment file): shown from the first paint, in
   * place of the loading screen, until the app replaces them (src/lib/app-shell.ts).
   */
  shells?: Record<string, string>;
}

/** Where index.html's loading screen starts; a shell page keeps it for visitors without a session. */
const BOOT_SPLASH = '<div class="boot-splash"';
const ROOT = '<div id="root">';
const TITLE_END = '</title>';

/**
 * One `index.html` per area of the app (sign-in, the user's area, the admin's), naming the area's
 * code in `<link rel="modulepreload">`. The browser then fetches it while the entry script
 * downloads, instead of after the entry has run and the router has asked for it: on a slow phone
 * network a round trip and a download less before the first screen. `areas` maps each area module
 * (its lazy route's `import()`) to the URL paths it serves and its static first screens; the server
 * picks the page by exact path, then by the longest matching path (`AREA_PAGES_FILE`), everything
 * else gets `index.html`. Every page gets the boot script (`BOOT_SCRIPT`) first in its <head>.
 */
export function areaPages(areas: Record<string, AreaOptions>): Plugin {
  let root = '';
  return {
    name: 'vitalwatch-area-pages',
    apply: 'build',
    // After Vite's own HTML plugin has put index.html in the bundle.
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    // Before the stylesheet: an inline script after one waits for it to load.
    transformIndexHtml(html) {
      if (!html.includes(TITLE_END)) throw new Error('area-pages: index.html has no <title>');
      return html.replace(TITLE_END, `${TITLE_END}\n    <script>${BOOT_SCRIPT}</script>`);
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset' || typeof index.source !== 'string') return;
      const chunks = Object.values(bundle).filter((f): f is OutputChunk => f.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      const loadedByEntry = new Set(entry ? staticClosure(bundle, entry.fileName) : []);
      const pages: AreaPagesFile = { exact: {}, prefix: {} };
      for (const [module, { paths, shells = {} }] of Object.entries(areas)) {
        const id = path.resolve(root, module);
        const chunk = chunks.find((c) => c.facadeModuleId === id);
        if (!chunk) throw new Error(`area-pages: no chunk for ${module}`);
        const files = staticClosure(bundle, chunk.fileName).filter((f) => !loadedByEntry.has(f));
        const links = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('\n    ');
        const page = index.source.replace('</head>', `  ${links}\n  </head>`);
        const fileName = `${path.basename(module, path.extname(module))}.html`;
        this.emitFile({ type: 'asset', fileName, source: page });
        for (const p of paths) pages.prefix[p] = fileName;
        for (const [exactPath, shellFile] of Object.entries(shells)) {
          const shellName = `${path.basename(shellFile, '.html')}.html`;
          const shell = readFileSync(path.resolve(root, shellFile), 'utf8');
          this.emitFile({ type: 'asset', fileName: shellName, source: withShell(page, shell) });
          pages.exact[exactPath] = shellName;
        }
      }
      this.emitFile({ type: 'asset', fileName: AREA_PAGES_FILE, source: JSON.stringify(pages) });
    },
  };
}

/**
 * The page with the shell placed before the app's root (React replaces what is inside the root at
 * its first render, and the shell must stay until the app's first screen is ready). The first paint
 * needs only the HTML and the stylesheet there, so the code's preloads go at low priority: on a
 * slow phone network the stylesheet no longer shares the link with 200 kB of scripts, and the shell
 * shows about a second sooner (Lighthouse's slow 4G: first paint 2.5 → 1.3 s). The code still
 * downloads at once, beside it.
 */
function withShell(page: string, shell: string): string {
  if (!page.includes(ROOT) || !page.includes(BOOT_SPLASH))
    throw new Error('area-pages: index.html has no #root with a boot splash to put a shell beside');
  return page
    .replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"')
    .replace(ROOT, `${shell.replace(/<!--[\s\S]*?-->/g, '').trim()}\n    ${ROOT}`);
}

/** `fileName` and every chunk it imports statically, directly or not. */
function staticClosure(bundle: OutputBundle, fileName: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    const chunk = bundle[name];
    if (seen.has(name) || chunk?.type !== 'chunk') return;
    seen.add(name);
    for (const imported of chunk.imports) visit(imported);
  };
  visit(fileName);
  return [...seen];
}
