import path from 'node:path';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** The file the server reads: URL path prefix → the page to send for it (`area-pages.json`). */
export const AREA_PAGES_FILE = 'area-pages.json';

/**
 * One `index.html` per area of the app (sign-in, the user's area, the admin's), naming the area's
 * code in `<link rel="modulepreload">`. The browser then fetches it while the entry script
 * downloads, instead of after the entry has run and the router has asked for it: on a slow phone
 * network a round trip and a download less before the first screen. `areas` maps each area module
 * (its lazy route's `import()`) to the URL paths it serves; the server picks the page by the
 * longest matching path (`AREA_PAGES_FILE`), everything else gets `index.html`.
 */
export function areaPages(areas: Record<string, readonly string[]>): Plugin {
  let root = '';
  return {
    name: 'vitalwatch-area-pages',
    apply: 'build',
    // After Vite's own HTML plugin has put index.html in the bundle.
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset' || typeof index.source !== 'string') return;
      const chunks = Object.values(bundle).filter((f): f is OutputChunk => f.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      const loadedByEntry = new Set(entry ? staticClosure(bundle, entry.fileName) : []);
      const pages: Record<string, string> = {};
      for (const [module, paths] of Object.entries(areas)) {
        const id = path.resolve(root, module);
        const chunk = chunks.find((c) => c.facadeModuleId === id);
        if (!chunk) throw new Error(`area-pages: no chunk for ${module}`);
        const files = staticClosure(bundle, chunk.fileName).filter((f) => !loadedByEntry.has(f));
        const links = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('\n    ');
        const fileName = `${path.basename(module, path.extname(module))}.html`;
        this.emitFile({
          type: 'asset',
          fileName,
          source: index.source.replace('</head>', `  ${links}\n  </head>`),
        });
        for (const p of paths) pages[p] = fileName;
      }
      this.emitFile({ type: 'asset', fileName: AREA_PAGES_FILE, source: JSON.stringify(pages) });
    },
  };
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
