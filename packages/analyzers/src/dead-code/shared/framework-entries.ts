// Files that frameworks load by convention rather than by import, and the exports they read.
// Next.js and Remix conventions apply inside a package that depends on the framework (paths are
// relative to that package); Storybook stories apply everywhere (their names are unambiguous).

export interface FrameworkEntry {
  /** Exports the framework reads; `*` when any export may be read (stories, entry modules). */
  names: string[] | '*';
  reason: string;
}

const CODE = String.raw`\.(?:[mc]?[jt]sx?)$`;
const NEXT_PAGE_EXPORTS = [
  'default',
  'getStaticProps',
  'getStaticPaths',
  'getServerSideProps',
  'getInitialProps',
  'config',
  'reportWebVitals',
  'unstable_runtimeJS',
];
const NEXT_APP_EXPORTS = [
  'default',
  'metadata',
  'generateMetadata',
  'viewport',
  'generateViewport',
  'generateStaticParams',
  'generateImageMetadata',
  'generateSitemaps',
  'revalidate',
  'dynamic',
  'dynamicParams',
  'fetchCache',
  'runtime',
  'preferredRegion',
  'maxDuration',
  'experimental_ppr',
  'alt',
  'size',
  'contentType',
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
];
const NEXT_APP_FILE = new RegExp(
  String.raw`^(?:src/)?app/(?:.*/)?(?:page|layout|template|loading|error|global-error|not-found|default|route|head|opengraph-image|twitter-image|icon|apple-icon|sitemap|robots|manifest)` +
    CODE,
);
const NEXT_PAGES_FILE = new RegExp(String.raw`^(?:src/)?pages/.+` + CODE);
const NEXT_ROOT_FILE = new RegExp(String.raw`^(?:src/)?(?:middleware|instrumentation|instrumentation-client)` + CODE);
const REMIX_ROUTE_EXPORTS = [
  'default',
  'loader',
  'action',
  'meta',
  'links',
  'headers',
  'handle',
  'ErrorBoundary',
  'HydrateFallback',
  'shouldRevalidate',
  'clientLoader',
  'clientAction',
  'Layout',
  'config',
];
const REMIX_ROUTE_FILE = new RegExp(String.raw`^app/(?:routes/.+|root)` + CODE);
const REMIX_ENTRY_FILE = new RegExp(String.raw`^app/entry\.(?:client|server)` + CODE);
const STORY_FILE = new RegExp(String.raw`\.(?:stories|story)` + CODE);

/** The convention a file follows; `relative` is its path inside the package, `deps` the package's dependencies. */
export function frameworkEntry(path: string, relative: string, deps: ReadonlySet<string>): FrameworkEntry | undefined {
  if (STORY_FILE.test(path)) return { names: '*', reason: 'a Storybook story file' };
  if (deps.has('next')) {
    if (NEXT_APP_FILE.test(relative)) return { names: NEXT_APP_EXPORTS, reason: 'a Next.js app router file' };
    if (NEXT_PAGES_FILE.test(relative)) {
      const isApi = /^(?:src\/)?pages\/api\//.test(relative);
      return { names: isApi ? ['default', 'config'] : NEXT_PAGE_EXPORTS, reason: isApi ? 'a Next.js API route' : 'a Next.js page' };
    }
    if (NEXT_ROOT_FILE.test(relative)) return { names: '*', reason: 'a Next.js middleware or instrumentation file' };
  }
  if ([...deps].some((d) => d.startsWith('@remix-run/') || d === '@react-router/dev')) {
    if (REMIX_ENTRY_FILE.test(relative)) return { names: '*', reason: 'a Remix entry module' };
    if (REMIX_ROUTE_FILE.test(relative)) return { names: REMIX_ROUTE_EXPORTS, reason: 'a Remix route module' };
  }
  return undefined;
}
