import type { INestApplicationContext } from '@nestjs/common';
import {
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import {
  PATTERN_HANDLER_METADATA,
  PATTERN_METADATA,
  TRANSPORT_METADATA,
} from '@nestjs/microservices/constants';
import { PatternHandler } from '@nestjs/microservices/enums/pattern-handler.enum';
import { RpcParamtype } from '@nestjs/microservices/enums/rpc-paramtype.enum';
import { IN_PROCESS_TRANSPORT } from './in-process-server';

/** A `@MessagePattern` method, called as a plain method with the payload. */
export type DirectRequestHandler = (payload: unknown) => unknown;

/** What a class or a method may carry that Nest's RPC pipeline would run around the call. */
const ENHANCERS = [
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
  EXCEPTION_FILTERS_METADATA,
];

/**
 * The app's request handlers that the in-process server may call as plain methods instead of
 * through Nest's RPC pipeline (context, guards, interceptors, pipes, filters: five async layers
 * around every request, with nothing in them for a handler like ours).
 *
 * A handler qualifies when nothing would run around it:
 * - a `@MessagePattern` method of a controller with a static (not request-scoped) instance;
 * - no guard, interceptor, pipe or exception filter on the method or its class;
 * - its one parameter is `@Payload()`, with no pipe and no property (or it has none).
 *
 * Global enhancers are not looked at: the bus server is connected with `inheritAppConfig: false`
 * and none is registered as a provider (see `bootApp`). Any other handler keeps Nest's pipeline.
 */
export function directRequestHandlers(
  context: INestApplicationContext,
): Map<string, DirectRequestHandler> {
  const handlers = new Map<string, DirectRequestHandler>();
  const scanner = new MetadataScanner();
  for (const module of context.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || !wrapper.isDependencyTreeStatic()) continue;
      const type = instance.constructor;
      if (carriesEnhancers(type)) continue;
      for (const name of scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const method = instance[name];
        if (typeof method !== 'function' || !isPlainRequestHandler(type, name, method)) continue;
        const patterns = Reflect.getMetadata(PATTERN_METADATA, method) as unknown[];
        for (const pattern of patterns) {
          if (typeof pattern === 'string') {
            handlers.set(pattern, (payload) =>
              (method as DirectRequestHandler).call(instance, payload),
            );
          }
        }
      }
    }
  }
  return handlers;
}

function isPlainRequestHandler(type: object, name: string, method: object): boolean {
  if (Reflect.getMetadata(PATTERN_HANDLER_METADATA, method) !== PatternHandler.MESSAGE) {
    return false;
  }
  const transport: unknown = Reflect.getMetadata(TRANSPORT_METADATA, method);
  if (transport !== undefined && transport !== IN_PROCESS_TRANSPORT) return false;
  if (carriesEnhancers(method)) return false;
  const params = (Reflect.getMetadata(ROUTE_ARGS_METADATA, type, name) ?? {}) as Record<
    string,
    { index: number; data?: unknown; pipes?: unknown[] }
  >;
  return Object.entries(params).every(
    ([key, param]) =>
      key === `${RpcParamtype.PAYLOAD}:0` &&
      param.index === 0 &&
      param.data === undefined &&
      (param.pipes ?? []).length === 0,
  );
}

function carriesEnhancers(target: object): boolean {
  return ENHANCERS.some((key) => {
    const value: unknown = Reflect.getMetadata(key, target);
    return Array.isArray(value) && value.length > 0;
  });
}
