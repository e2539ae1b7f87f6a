/** Builds the Fastify application: hooks, error table, routers. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { installAdmission } from './admission.ts';
import { installErrorHandlers } from './error-handler.ts';
import { clientErrorHandler, frameworkErrors, installJsonParser, MAX_PARAM_LENGTH } from './request-limits.ts';
import { demoFileIfServed, registerAppRoutes } from './factories/app-routes.ts';
import { registerFavicon } from './factories/favicon-route.ts';
import { registerAlgorithmRoutes } from './factories/algorithm-routes.ts';
import { registerColormapRoutes } from './factories/colormap-routes.ts';
import { registerCogRouter } from './factories/cog-router.ts';
import { registerStacRouter } from './factories/stac-router.ts';
import { registerMosaicJsonRouter } from './factories/mosaicjson-router.ts';
import { registerGranuleLegacyRedirects } from './factories/granule-legacy-redirects.ts';
import { registerGranuleListingRoutes } from './factories/granule-listing-routes.ts';
import { registerGranuleRasterRouter } from './factories/granule-raster-router.ts';
import { registerZarrRouter } from './factories/zarr-router.ts';
import { registerGranuleArrayRouter } from './factories/granule-array-router.ts';
import { registerCompatibilityRoute } from './factories/compatibility-route.ts';
import { registerTimeseriesListRoute } from './factories/timeseries-routes.ts';
import { registerStaticRoutes } from './factories/static-routes.ts';
import { registerMetricsRoutes } from './factories/metrics-routes.ts';
import { registerTmsRoutes } from './factories/tms-routes.ts';
import { installLifecycleHeaders, Lifecycle } from './lifecycle.ts';
import { loggerOptions } from './logger.ts';
import { installResponseCache } from './response-cache/route-cache.ts';
import { installCacheFastPath } from './response-cache/fast-path.ts';
import { RouteRegistry } from './route.ts';
import { createServices, type Services } from './services.ts';

export interface AppOptions {
  logger?: boolean;
  services?: Services;
  /** Serving/draining state, shared with the graceful shutdown (src/cli/serve.ts). */
  lifecycle?: Lifecycle;
  /** false: no response-cache fast path in front of Fastify (tests compare both paths). */
  cacheFastPath?: boolean;
}

export function buildApp(config: Config, options: AppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: options.logger ? loggerOptions() : false,
    bodyLimit: config.limits.maxBodyBytes,
    // Forwarded headers only from configured proxies: links in TileJSON/WMTS documents use
    // request.host/protocol, and a shared cache must not serve links a client forged.
    // Fastify accepts a hop count at runtime; its typings omit `number`.
    trustProxy: config.trustProxy as boolean | string,
    // Query strings: keep repeated keys as arrays (`bidx=1&bidx=2`).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler,
    frameworkErrors,
    // While closing, requests on kept-alive connections are still answered (with Connection:
    // close): /readyz can say "draining" and no accepted request is refused.
    return503OnClosing: false,
  });
  const lifecycle = options.lifecycle ?? new Lifecycle();
  const services = options.services ?? createServices(config, { onReadPlan: (plan) => app.log.debug({ plan }, 'read plan') });
  const registry = new RouteRegistry();

  installErrorHandlers(app, config.limits.maxBodyBytes);
  installJsonParser(app);
  installAdmission(app, config.limits);
  installResponseHeaders(app, config);
  installLifecycleHeaders(app, lifecycle);
  installResponseCache(app, config.responseCache, services);
  // Repeat GETs answered from the response cache before Fastify routes them (issue 12).
  if (options.cacheFastPath !== false) {
    installCacheFastPath(
      app,
      { corsOrigins: config.corsOrigins || '', cacheControlTiles: config.responseCache?.cacheControlTiles ?? '', cacheControl: config.cacheControl || '' },
      lifecycle,
    );
  }

  registerAppRoutes(app, registry, lifecycle, demoFileIfServed(config));
  registerFavicon(app);
  registerTmsRoutes(app, registry);
  registerAlgorithmRoutes(app, registry);
  registerColormapRoutes(app, registry, config.limits.maxImageSide);
  registerStaticRoutes(app);
  registerMetricsRoutes(app);
  registerCogRouter(app, registry, services, '/cog');
  registerStacRouter(app, registry, services, '/stac');
  registerMosaicJsonRouter(app, registry, services, '/mosaicjson');
  registerGranuleRasterRouter(app, registry, services, '/raster');
  registerZarrRouter(app, registry, services, '/zarr');
  registerGranuleArrayRouter(app, registry, services, '/array');
  registerCompatibilityRoute(app, registry, services);
  registerGranuleListingRoutes(app, registry, services);
  registerTimeseriesListRoute(app, registry, services);
  // Last: 0.x granule-search URLs (only paths no router above matches).
  registerGranuleLegacyRedirects(app, registry);
  return app;
}

/** TiTiler's CacheControl and CORS middlewares. */
function installResponseHeaders(app: FastifyInstance, config: Config): void {
  // Callback-style (not async): no promise per response on the hot path of cached tiles.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (config.corsOrigins) reply.header('access-control-allow-origin', config.corsOrigins);
    const method = request.method;
    // Errors are not kept by caches for long: a 404 must not outlive the file's arrival (issue 12).
    if ((method === 'GET' || method === 'HEAD') && reply.statusCode >= 400 && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', config.responseCache?.cacheControlErrors ?? 'no-store');
    }
    if (
      config.cacheControl &&
      (method === 'GET' || method === 'HEAD') &&
      reply.statusCode < 500 &&
      !reply.hasHeader('cache-control') &&
      request.routeOptions.config?.cacheControl !== false
    ) {
      reply.header('cache-control', config.cacheControl);
    }
    done(null, payload);
  });
  if (config.corsOrigins) {
    app.options('*', async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-origin', config.corsOrigins)
        .header('access-control-allow-methods', 'GET, POST, OPTIONS')
        .header('access-control-allow-headers', '*')
        .header('access-control-max-age', '600')
        .send(),
    );
  }
}
