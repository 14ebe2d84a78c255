package tripleagen.harness;

import java.lang.reflect.Method;

/**
 * Calls of the engine's private methods. The 1.9 engine has no public way to start a game's
 * persistent delegates or to run one step at a time, which both the AI-game harness and the
 * client screenshot need.
 */
public final class Reflection {
  private Reflection() {}

  /** Calls target's declared method name with args (a Boolean argument stands for a boolean). */
  public static Object invokePrivate(final Object target, final String name, final Object... args)
      throws ReflectiveOperationException {
    final Class<?>[] types = new Class<?>[args.length];
    for (int i = 0; i < args.length; i++) {
      types[i] = args[i] instanceof Boolean ? boolean.class : args[i].getClass();
    }
    final Method method = target.getClass().getDeclaredMethod(name, types);
    method.setAccessible(true);
    return method.invoke(target, args);
  }
}
