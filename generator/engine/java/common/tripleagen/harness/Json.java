package tripleagen.harness;

import java.util.Collection;
import java.util.Map;

/**
 * The smallest JSON writer that serves the harness: maps, collections, strings, numbers,
 * booleans and null. Written here so that the harness needs nothing beyond the engine's jars.
 * Maps are written in their own iteration order, so callers pass ordered maps for
 * deterministic output.
 */
public final class Json {
  private Json() {}

  public static String write(final Object value) {
    final StringBuilder out = new StringBuilder();
    append(out, value);
    return out.toString();
  }

  private static void append(final StringBuilder out, final Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String) {
      appendString(out, (String) value);
    } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
      out.append(value);
    } else if (value instanceof Number) {
      final double number = ((Number) value).doubleValue();
      // JSON has no NaN or infinity; such a value would make the whole report unreadable.
      out.append(Double.isFinite(number) ? Double.toString(number) : "null");
    } else if (value instanceof Map) {
      out.append('{');
      boolean first = true;
      for (final Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        appendString(out, String.valueOf(entry.getKey()));
        out.append(':');
        append(out, entry.getValue());
      }
      out.append('}');
    } else if (value instanceof Collection) {
      out.append('[');
      boolean first = true;
      for (final Object item : (Collection<?>) value) {
        if (!first) {
          out.append(',');
        }
        first = false;
        append(out, item);
      }
      out.append(']');
    } else {
      appendString(out, value.toString());
    }
  }

  private static void appendString(final StringBuilder out, final String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      final char c = text.charAt(i);
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        case '\n':
          out.append("\\n");
          break;
        case '\r':
          out.append("\\r");
          break;
        case '\t':
          out.append("\\t");
          break;
        default:
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }
}
