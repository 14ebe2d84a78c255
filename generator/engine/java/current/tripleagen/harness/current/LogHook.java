package tripleagen.harness.current;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;
import tripleagen.harness.EngineLog;

/**
 * The 2.x engine reports through slf4j and logback, not printStackTrace: what it logs at
 * ERROR, and every exception it logs at WARN or above, goes to the run's exception log.
 */
final class LogHook {
  private LogHook() {}

  static void install(final EngineLog log) {
    final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
      @Override
      protected void append(final ILoggingEvent event) {
        if (!event.getLevel().isGreaterOrEqual(Level.WARN)) {
          return;
        }
        final IThrowableProxy proxy = event.getThrowableProxy();
        if (proxy instanceof ThrowableProxy) {
          log.record("logged", ((ThrowableProxy) proxy).getThrowable());
        } else if (event.getLevel().isGreaterOrEqual(Level.ERROR)) {
          log.recordMessage("logged", event.getFormattedMessage());
        }
      }
    };
    appender.setContext(root.getLoggerContext());
    appender.setName("tripleagen");
    appender.start();
    root.addAppender(appender);
  }
}
