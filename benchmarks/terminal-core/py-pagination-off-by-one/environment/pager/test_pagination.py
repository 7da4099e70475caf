import unittest

from pagination import paginate


class PaginateTest(unittest.TestCase):
    def test_first_page(self):
        p = paginate(range(1, 26), 1, 10)
        self.assertEqual(p.items, list(range(1, 11)))
        self.assertEqual(p.total_pages, 3)
        self.assertTrue(p.has_next)
        self.assertFalse(p.has_prev)

    def test_last_partial_page(self):
        p = paginate(range(1, 26), 3, 10)
        self.assertEqual(p.items, [21, 22, 23, 24, 25])
        self.assertFalse(p.has_next)
        self.assertTrue(p.has_prev)


if __name__ == "__main__":
    unittest.main()
