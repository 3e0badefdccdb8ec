/// The answer `tidemark demo` replays: what a chat assistant writes, with
/// headings, a numbered list, display and inline math, code in three
/// languages, an alert, a table, a task list, a quote and a footnote.
enum DemoText {
    static let answer = #"""
        # Binary search, step by step

        **Binary search** finds an item in a *sorted* array by halving the range it looks at, again and again. Each comparison throws away half of what is left, so even a billion elements need only about 30 steps.

        ## How it works

        1. Look at the element in the **middle** of the range.
        2. If it is the target, you are done.
        3. If the target is smaller, continue in the left half; otherwise in the right half.
        4. Stop when the range is empty — the target is not there.

        After $k$ steps the range has shrunk to $n / 2^k$ elements, so the search ends after at most

        $$\lceil \log_2(n + 1) \rceil$$

        comparisons. For $n = 10^9$ that is 30.

        ## In code

        Swift, returning the index or `nil`:

        ```swift
        func binarySearch<T: Comparable>(_ items: [T], for target: T) -> Int? {
            var low = 0
            var high = items.count - 1
            while low <= high {
                let mid = low + (high - low) / 2   // never overflows
                if items[mid] == target { return mid }
                if items[mid] < target { low = mid + 1 } else { high = mid - 1 }
            }
            return nil
        }
        ```

        The same in Python, whose standard library already has the hard part:

        ```python
        from bisect import bisect_left

        def binary_search(items, target):
            i = bisect_left(items, target)
            return i if i < len(items) and items[i] == target else None

        print(binary_search([2, 3, 5, 7, 11, 13], 7))  # 3
        ```

        > [!WARNING]
        > `mid = (low + high) / 2` overflows when `low + high` exceeds the largest integer — a bug that sat in Java's `Arrays.binarySearch` for nine years. Write `low + (high - low) / 2` instead.

        ## How it compares

        | Method | Needs sorted input | Lookup | Extra memory |
        |:--------------|:------:|-------:|------:|
        | Linear scan | no | $O(n)$ | $O(1)$ |
        | Binary search | **yes** | $O(\log n)$ | $O(1)$ |
        | Hash table | no | $O(1)$ on average | $O(n)$ |

        Use binary search when the data is already sorted, or is searched far more often than it changes.

        ## Before you ship

        - [x] The array is sorted by the **same** ordering you compare with
        - [x] An empty array returns `nil`
        - [ ] Duplicates: decide whether you want the *first*, the *last*, or *any* match
        - [ ] Test a few sizes: 0, 1, 2, and a large one

        ```bash
        swift test --filter BinarySearchTests
        ```

        > Binary search is simple to state and easy to get wrong: off-by-one errors hide in every boundary.[^1]

        [^1]: Jon Bentley found that only about one in ten professional programmers wrote a correct one; see [Programming Pearls](https://en.wikipedia.org/wiki/Programming_Pearls).

        """#
}
